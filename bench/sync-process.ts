/**
 * One sync process of the footprint benchmark: builds the connector's parts on BENCH_PREFIX, runs
 * one sync cycle against the partner at BENCH_PARTNER_URL, and prints its memory as JSON: the RSS
 * this process had before the cycle and at its peak, sampled every 20 ms.
 */
import { Redis } from 'ioredis';
import { runSyncCycle } from '../jobs/sync-shipments/cycle.js';
import { buildSharedParts } from '../src/compose/parts.js';
import { createLogger } from '../src/log.js';
import { benchJobSettings, benchPartnerSide, benchStoreClient } from './settings.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const prefix = env('BENCH_PREFIX');
const logger = createLogger({ level: 'silent' });
const redis = new Redis(env('BENCH_REDIS_URL'), { maxRetriesPerRequest: null });
const parts = buildSharedParts({ redis, prefix, settings: benchJobSettings(), logger });
const { partner } = benchPartnerSide(env('BENCH_PARTNER_URL'), redis, prefix, logger, {
  timeoutMs: 30_000,
});
// A quiet cycle writes nothing to Shopify: the store is never called.
const store = benchStoreClient('http://127.0.0.1:9', logger);

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
