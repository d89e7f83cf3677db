/**
 * One sync process of the footprint benchmark: builds the connector's parts on BENCH_PREFIX, runs
 * one sync cycle against the partner at BENCH_PARTNER_URL, and prints its memory as JSON: the RSS
 * this process had before the cycle and at its peak, sampled every 20 ms.
 */
import { Redis } from 'ioredis';
import { runSyncCycle } from '../jobs/sync-shipments/cycle.js';
import { buildPartnerSide } from '../src/compose/clients.js';
import { buildSharedParts } from '../src/compose/parts.js';
import { createLogger } from '../src/log.js';
import { createStoreClient } from '../src/store/index.js';
import { SHIPMENT_SETTINGS, SYNC_SETTINGS } from './settings.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const prefix = env('BENCH_PREFIX');
const logger = createLogger({ level: 'silent' });
const redis = new Redis(env('BENCH_REDIS_URL'), { maxRetriesPerRequest: null });
const settings = {
  shipment: SHIPMENT_SETTINGS,
  eligibility: {
    financialStatuses: ['paid'],
    skipTestOrders: true,
    includeTags: [],
    excludeTags: [],
  },
  createJob: { attempts: 3, backoff: { firstMs: 100, maxMs: 1_000 } },
  intake: { pollIntervalMs: 300_000, pollOverlapMs: 600_000, firstLookbackDays: 30 },
  records: { retentionDays: 90 },
  sync: SYNC_SETTINGS,
};
const parts = buildSharedParts({ redis, prefix, settings, logger });
const { partner } = buildPartnerSide(
  {
    apiUrl: env('BENCH_PARTNER_URL'),
    token: 'sbx_demo_token',
    rateLimit: 1_000_000,
    rateWindowMs: 60_000,
    syncReserve: 0.2,
    retryAfterDefaultMs: 1_000,
    retryAfterMaxMs: 900_000,
    timeoutMs: 30_000,
  },
  redis,
  logger,
  `${prefix}:partner-budget`,
);
// A quiet cycle writes nothing to Shopify: the store is never called.
const store = createStoreClient({
  shop: 'bench.myshopify.com',
  auth: { kind: 'accessToken', accessToken: 'shpat_bench' },
  apiVersion: '2026-07',
  adminApiUrl: 'http://127.0.0.1:9',
  webhookSecret: 'b',
  logger,
});

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
await redis.ping();
const rssStart = process.memoryUsage().rss;
let rssPeak = rssStart;
let heapPeak = process.memoryUsage().heapUsed;
const sampler = setInterval(() => {
  const usage = process.memoryUsage();
  rssPeak = Math.max(rssPeak, usage.rss);
  heapPeak = Math.max(heapPeak, usage.heapUsed);
}, 20);
const started = performance.now();
const summary = await runSyncCycle({ ...parts, partner, store, logger }, 'bench-footprint');
const cycleSeconds = (performance.now() - started) / 1000;
clearInterval(sampler);
rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
await parts.close();
await redis.quit();
console.log(
  JSON.stringify({
    rssStartMb: mb(rssStart),
    rssPeakMb: mb(rssPeak),
    heapPeakMb: mb(heapPeak),
    cycleSeconds: Number(cycleSeconds.toFixed(1)),
    listRequests: summary.listRequests,
  }),
);
process.exit(0);
