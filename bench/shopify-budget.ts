/**
 * Shopify budget benchmark: orders registered a second when Shopify's bucket is the limit.
 * 1 and 3 connector processes (bench/connector-process.ts, `connector start` with default
 * settings) register a backlog of orders through the real jobs against a partner sandbox that
 * is not the limit and a fake store whose cost bucket is a standard plan's (2,000 points, 100 a
 * second; orders of one line item) or a Plus plan's (10,000, 1,000 a second; orders of 60 line
 * items, so that Shopify and not the machine is the limit). Measured after the warm-up has emptied the
 * bucket, from what the fake store saw: actual points charged, orders marked registered
 * (`WriteOrderMarks`), THROTTLED answers.
 *
 * The bound is the restore rate ÷ the actual points an order costs; the connector should reach
 * 0.95 of it with 0 THROTTLED.
 *
 *   npm run bench:shopify   (also part of `npm run bench`)
 *   BENCH_PLANS=standard,plus BENCH_PROCESSES=1,3
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Redis } from 'ioredis';
import { buildSharedParts } from '../src/compose/parts.js';
import { DEMO_SHOP, DEMO_STORE_TOKEN, DEMO_WEBHOOK_SECRET } from '../src/demo/settings.js';
import { createLogger } from '../src/log.js';
import { startPartnerSandbox } from '../src/sandbox/partner/index.js';
import { type FakeStore, startFakeStore } from '../src/sandbox/store/index.js';
import { startConnectorProcess, stopConnectorProcess } from './connector-process.js';
import { dropKeys, startLocalRedis } from './rig.js';
import { benchJobSettings } from './settings.js';

const PLANS = {
  standard: {
    maximumAvailable: 2_000,
    restoreRate: 100,
    lineItems: 1,
    orders: 500,
    warmUpMs: 25_000,
  },
  // Orders of 60 line items (three pages to read), so that Shopify, not this machine's two
  // cores, is the limit at 1,000 points a second.
  plus: {
    maximumAvailable: 10_000,
    restoreRate: 1_000,
    lineItems: 60,
    orders: 800,
    warmUpMs: 20_000,
  },
} as const;
type Plan = keyof typeof PLANS;
const MEASURE_MS = Number(process.env.BENCH_MEASURE_MS ?? 20_000);
const plans = (process.env.BENCH_PLANS ?? 'standard,plus').split(',') as Plan[];
const processCounts = (process.env.BENCH_PROCESSES ?? '1,3').split(',').map(Number);
/** Orders days old: the connector's first reconciliation pass leaves them to the benchmark. */
const OLD = new Date(Date.now() - 3 * 86_400_000).toISOString();

const local = await startLocalRedis();
const redis = new Redis(local.url, { maxRetriesPerRequest: null });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface RunResult {
  plan: Plan;
  processes: number;
  registered: number;
  points: number;
  throttled: number;
  seconds: number;
  lowest: number;
}

function snapshot(store: FakeStore) {
  const bucket = store.costBucket()!;
  return {
    at: performance.now(),
    used: bucket.used,
    throttled: bucket.throttled,
    marked: store.requests.filter(
      (r) => r.operationName === 'WriteOrderMarks' && r.outcome === 'ok',
    ).length,
  };
}

async function run(plan: Plan, processes: number): Promise<RunResult> {
  const { orders, warmUpMs, lineItems, ...bucket } = PLANS[plan];
  const prefix = `bench-shopify-${randomUUID().slice(0, 8)}`;
  const sandbox = await startPartnerSandbox({ rateLimit: 1_000_000_000, rateWindowMs: 60_000 });
  const store = await startFakeStore({
    shop: DEMO_SHOP,
    accessToken: DEMO_STORE_TOKEN,
    webhookSecret: DEMO_WEBHOOK_SECRET,
    orders: [],
    costBucket: bucket,
  });
  for (let i = 0; i < orders; i += 1) {
    store.createOrder(
      {
        id: String(9_000_000 + i),
        createdAt: OLD,
        updatedAt: OLD,
        lineItems: Array.from({ length: lineItems }, (_, n) => ({
          title: `Item ${n + 1}`,
          weight: { value: 100, unit: 'GRAMS' as const },
        })),
      },
      { sendWebhook: false },
    );
  }
  const token = sandbox.issueToken('demo@sandbox.local', prefix);
  const children: ChildProcess[] = [];
  for (let i = 0; i < processes; i += 1) {
    children.push(
      await startConnectorProcess(
        {
          redisUrl: local.url,
          prefix,
          partnerUrl: sandbox.url,
          partnerToken: token,
          storeUrl: store.url,
        },
        {
          ORDER_POLL_INTERVAL_MS: '600000',
          SYNC_INTERVAL_MS: '600000',
          PARTNER_RATE_LIMIT: '1000000000',
        },
      ),
    );
  }
  // Queued as webhooks would queue them: every order at once.
  const parts = buildSharedParts({
    redis,
    prefix,
    settings: benchJobSettings(),
    logger: createLogger({ level: 'silent' }),
  });
  for (let i = 0; i < orders; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, orders - i) }, (_, n) =>
        parts.enqueueOrder(String(9_000_000 + i + n), 'bench'),
      ),
    );
  }
  await sleep(warmUpMs);
  const start = snapshot(store);
  await sleep(MEASURE_MS);
  const end = snapshot(store);
  const lowest = store.costBucket()!.lowest;
  if (end.marked >= orders) console.error(`${plan}/${processes}: the backlog ran out`);

  await Promise.all(children.map(stopConnectorProcess));
  await parts.close();
  await Promise.all([sandbox.close(), store.close()]);
  await dropKeys(redis, prefix);
  return {
    plan,
    processes,
    registered: end.marked - start.marked,
    points: end.used - start.used,
    throttled: end.throttled - start.throttled,
    seconds: (end.at - start.at) / 1000,
    lowest,
  };
}

const results: RunResult[] = [];
for (const plan of plans) {
  for (const processes of processCounts) results.push(await run(plan, processes));
}
await redis.quit();
await local.stop();

console.log(
  `\nShopify budget: orders registered a second with the bucket as the limit, ${MEASURE_MS / 1000} s measured after the warm-up`,
);
console.log(
  `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}, load average ${os.loadavg()[0]?.toFixed(1)}`,
);
console.log(
  '\n| plan (restore rate) | processes | orders registered/s | actual points per order | bound (restore ÷ points per order) | share of the bound | THROTTLED | lowest level |',
);
console.log('|---|---|---|---|---|---|---|---|');
let ok = true;
for (const r of results) {
  const { restoreRate } = PLANS[r.plan];
  const perOrder = r.points / r.registered;
  const perSecond = r.registered / r.seconds;
  const bound = restoreRate / perOrder;
  const share = perSecond / bound;
  if (share < 0.95 || r.throttled > 0) ok = false;
  console.log(
    `| ${r.plan} (${restoreRate}/s) | ${r.processes} | ${perSecond.toFixed(2)} | ${perOrder.toFixed(1)} | ${bound.toFixed(2)} | ${(share * 100).toFixed(1)}% | ${r.throttled} | ${Math.floor(r.lowest)} |`,
  );
}
if (!ok) {
  console.error('Below 0.95 of the bound, or Shopify throttled a request');
  process.exitCode = 1;
}
process.exit();
