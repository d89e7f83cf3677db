/**
 * Shopify points per order: registers N orders (some with 60 line items) through the real
 * create-shipment and mark-order jobs, against the local partner sandbox and fake store with
 * real Redis, and reports Shopify requests and requested/actual query cost per order, as the
 * store client's onRequest hook (the one /metrics reads) saw them in `extensions.cost`.
 *
 *   npm run bench:shopify-cost        (also part of `npm run bench`)
 *   BENCH_ORDERS=200 BENCH_BIG_EVERY=5 (every 5th order has 60 line items)
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Redis } from 'ioredis';
import { buildSharedParts } from '../src/compose/parts.js';
import { startWorkers } from '../src/compose/workers.js';
import { createLogger } from '../src/log.js';
import type { StoreRequestOutcome } from '../src/store/index.js';
import { dropKeys, startBenchSandbox, startBenchStore, startLocalRedis } from './rig.js';
import { benchJobSettings, benchPartnerSide, benchStoreClient } from './settings.js';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 200);
const BIG_EVERY = Number(process.env.BENCH_BIG_EVERY ?? 5);
const BIG_LINE_ITEMS = 60;
const logger = createLogger({ level: 'silent' });

/**
 * This benchmark run on main before the change (7e39c99, with this fake store's cost reporting;
 * 200 orders, 40 of 60 line items): GetOrder asked for 605 points whatever the order held, and
 * the registration mark sent four mutations of 12 (two of them with nothing to do).
 */
const BEFORE = { requests: 5, requested: 653, actual: 125.6, getOrderRequested: 605 };

const local = await startLocalRedis();

const redis = new Redis(local.url, { maxRetriesPerRequest: null });
const prefix = `bench-shopify-${randomUUID().slice(0, 8)}`;
const sandbox = await startBenchSandbox();
const store = await startBenchStore({ orders: [] });
const parts = buildSharedParts({ redis, prefix, settings: benchJobSettings(), logger });
const { partner } = benchPartnerSide(sandbox.url, redis, prefix, logger);
const seen: StoreRequestOutcome[] = [];
const storeClient = benchStoreClient(store.url, logger, {
  onRequest: (outcome) => seen.push(outcome),
});
const context = { ...parts, store: storeClient, partner };

const ids: string[] = [];
let bigOrders = 0;
for (let i = 0; i < ORDERS; i += 1) {
  const big = BIG_EVERY > 0 && i % BIG_EVERY === 0;
  if (big) bigOrders += 1;
  const lineItems = Array.from({ length: big ? BIG_LINE_ITEMS : 2 }, (_, n) => ({
    title: `Item ${n + 1}`,
    weight: { value: 100, unit: 'GRAMS' as const },
  }));
  const id = String(7_000_000 + i);
  await store.createOrder({ id, lineItems }, { sendWebhook: false });
  ids.push(id);
}

const started = performance.now();
const workers = startWorkers(context, { connection: redis });
for (const id of ids) await parts.enqueueOrder(id, 'bench');
const queues = [
  parts.queues.createShipment,
  parts.queues.markOrder,
  parts.queues.writeShipmentStatus,
];
for (;;) {
  const counts = await Promise.all(
    queues.map((q) => q.getJobCounts('waiting', 'active', 'delayed', 'prioritized')),
  );
  if (counts.every((c) => Object.values(c).every((n) => n === 0))) break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const seconds = (performance.now() - started) / 1000;
await Promise.all(workers.map((worker) => worker.close()));
const failed = (await parts.queues.createShipment.getJobCounts('failed')).failed ?? 0;
const registered = (await Promise.all(ids.map((id) => parts.records.get(id)))).filter(
  (r) => r?.state === 'registered',
).length;

const byOperation = new Map<string, { requests: number; requested: number; actual: number }>();
for (const { operation, outcome, cost } of seen) {
  if (outcome !== 'ok') continue;
  const row = byOperation.get(operation) ?? { requests: 0, requested: 0, actual: 0 };
  row.requests += 1;
  row.requested += cost?.requested ?? 0;
  row.actual += cost?.actual ?? 0;
  byOperation.set(operation, row);
}
const total = [...byOperation.values()].reduce(
  (sum, row) => ({
    requests: sum.requests + row.requests,
    requested: sum.requested + row.requested,
    actual: sum.actual + row.actual,
  }),
  { requests: 0, requested: 0, actual: 0 },
);
const dearest = Math.max(
  0,
  ...seen.filter((s) => s.outcome === 'ok').map((s) => s.cost?.requested ?? 0),
);

await parts.close();
await dropKeys(redis, prefix);
await redis.quit();
await Promise.all([sandbox.close(), store.close()]);

const per = (n: number) => (n / ORDERS).toFixed(2);
console.log(
  `\nShopify cost per order, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}`,
);
console.log(
  `${ORDERS} orders (${bigOrders} with ${BIG_LINE_ITEMS} line items, the rest 2), ${registered} registered, ${failed} failed, ${seconds.toFixed(1)} s\n`,
);
console.log(
  '| | Shopify requests per order | requested points per order | actual points per order | dearest single request |',
);
console.log('|---|---|---|---|---|');
console.log(
  `| before (main) | ${BEFORE.requests} | ${BEFORE.requested} | ${BEFORE.actual} | ${BEFORE.getOrderRequested} |`,
);
console.log(
  `| after | ${per(total.requests)} | ${per(total.requested)} | ${per(total.actual)} | ${dearest} |`,
);
console.log('\n| operation | requests per order | requested per request | actual per request |');
console.log('|---|---|---|---|');
for (const [operation, row] of [...byOperation].sort((a, b) => b[1].requests - a[1].requests)) {
  console.log(
    `| ${operation} | ${per(row.requests)} | ${(row.requested / row.requests).toFixed(1)} | ${(row.actual / row.requests).toFixed(1)} |`,
  );
}
await local.stop();
process.exit(0);
