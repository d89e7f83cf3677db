/**
 * The status sync's cost: partner requests per cycle against the lower bound, for M followed
 * shipments, next to what polling each shipment would cost; the time a cycle takes; and the
 * Shopify requests and requested query cost per shipped order. Runs against the local partner
 * sandbox and fake store, with real Redis and the connector's own jobs.
 *
 *   npm run bench:sync        (also part of `npm run bench`)
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { parse } from 'graphql';
import { Redis } from 'ioredis';
import { runSyncCycle, SYNC_PAGE_SIZE } from '../jobs/sync-shipments/cycle.js';
import { buildSharedParts } from '../src/compose/parts.js';
import { startWorkers } from '../src/compose/workers.js';
import { createLogger } from '../src/log.js';
import { requestedQueryCost } from '../src/sandbox/store/query-cost.js';
import { fakeAdminSchema } from '../src/sandbox/store/schema.js';
import { STORE_DOCUMENTS } from '../src/store/documents.js';
import {
  dropKeys,
  followListedShipments,
  startBenchSandbox,
  startBenchStore,
  startLocalRedis,
} from './rig.js';
import { benchJobSettings, benchPartnerSide, benchStoreClient } from './settings.js';

const local = await startLocalRedis();
const SIZES = (process.env.BENCH_SYNC_SIZES ?? '1000,10000').split(',').map(Number);
/** Share of the followed shipments handed to the carrier between the two measured cycles. */
const SHIPPED_SHARE = 0.02;
const logger = createLogger({ level: 'silent' });

/** Each document's requested cost, by operation name, as Shopify computes it before running it. */
const documentByOperation = new Map<string, string>();
for (const group of Object.values(STORE_DOCUMENTS)) {
  for (const document of Object.values(group) as string[]) {
    const name = /(?:query|mutation)\s+(\w+)/.exec(document)?.[1];
    if (name) documentByOperation.set(name, document);
  }
}

interface Row {
  m: number;
  listRequests: number;
  listLowerBound: number;
  quietDetail: number;
  cycleSeconds: number;
  shipped: number;
  shippedList: number;
  shippedDetail: number;
  shopifyRequestsPerShipped: number;
  requestedCostPerShipped: number;
  byOperation: Record<string, number>;
}

async function measure(m: number): Promise<Row> {
  const redis = new Redis(local.url, { maxRetriesPerRequest: null });
  const prefix = `bench-sync-${randomUUID().slice(0, 8)}`;
  // The budget is not what is measured here: it is set far above the traffic.
  const sandbox = await startBenchSandbox();
  const store = await startBenchStore({ orders: [] });
  const parts = buildSharedParts({ redis, prefix, settings: benchJobSettings(), logger });
  const { partner } = benchPartnerSide(sandbox.url, redis, prefix, logger);
  const storeClient = benchStoreClient(store.url, logger);
  const context = { ...parts, store: storeClient, partner };

  // M shipments registered over the last 30 days, and the connector's record of each as earlier
  // cycles left it (read through the list, so every timestamp is the provider's own).
  const references = Array.from({ length: m }, (_, i) => String(10_000_000 + i));
  sandbox.seedShipments({
    references,
    createdFrom: new Date(Date.now() - 30 * 24 * 3600_000),
    createdTo: new Date(Date.now() - 60_000),
  });
  await followListedShipments(context);

  // A cycle in which nothing changed.
  sandbox.resetRequestLog();
  const started = performance.now();
  await runSyncCycle({ ...context, logger }, 'bench-quiet');
  const cycleSeconds = (performance.now() - started) / 1000;
  const quiet = sandbox.requestCounts().byEndpoint;

  // Some are handed to the carrier; their orders exist in Shopify to be fulfilled.
  const shipped = references.filter((_, i) => i % Math.round(1 / SHIPPED_SHARE) === 0);
  for (const reference of shipped) {
    await store.createOrder({ id: reference }, { sendWebhook: false });
    sandbox.advance(reference, 'shipped');
  }
  sandbox.resetRequestLog();
  const storeRequestsBefore = store.requests.length;
  const workers = startWorkers(context, { connection: redis });
  await runSyncCycle({ ...context, logger }, 'bench-shipped');
  const counts = sandbox.requestCounts().byEndpoint;
  const updateQueues = [
    parts.queues.writeShipmentStatus,
    parts.queues.fulfilShipment,
    parts.queues.reportShipmentProgress,
  ];
  for (;;) {
    const pending = await Promise.all(
      updateQueues.map((q) => q.getJobCounts('waiting', 'active', 'delayed', 'prioritized')),
    );
    if (pending.every((c) => Object.values(c).every((n) => n === 0))) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await Promise.all(workers.map((worker) => worker.close()));

  const byOperation: Record<string, number> = {};
  let requestedCost = 0;
  for (const request of store.requests.slice(storeRequestsBefore)) {
    const name = request.operationName ?? '?';
    byOperation[name] = (byOperation[name] ?? 0) + 1;
    const document = documentByOperation.get(name);
    if (document) {
      requestedCost += requestedQueryCost(fakeAdminSchema, parse(document), {
        variables: request.variables,
      });
    }
  }
  const shopifyRequests = store.requests.length - storeRequestsBefore;

  await parts.close();
  await dropKeys(redis, prefix);
  await redis.quit();
  await Promise.all([sandbox.close(), store.close()]);

  return {
    m,
    listRequests: quiet['GET /shipments'] ?? 0,
    listLowerBound: Math.ceil(m / SYNC_PAGE_SIZE),
    quietDetail: quiet['GET /shipments/{reference}'] ?? 0,
    cycleSeconds,
    shipped: shipped.length,
    shippedList: counts['GET /shipments'] ?? 0,
    shippedDetail: counts['GET /shipments/{reference}'] ?? 0,
    shopifyRequestsPerShipped: shopifyRequests / shipped.length,
    requestedCostPerShipped: requestedCost / shipped.length,
    byOperation: Object.fromEntries(
      Object.entries(byOperation).map(([name, n]) => [name, n / shipped.length]),
    ),
  };
}

const rows: Row[] = [];
for (const m of SIZES) rows.push(await measure(m));

const minutes = (requests: number) => `${(requests / 60).toFixed(1)} min`;
console.log(
  `\nStatus sync, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}\n`,
);
console.log(
  '| M shipments | list requests (lower bound) | detail reads, nothing changed | cycle time | at 60/min | polling each: requests, at 60/min |',
);
console.log('|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.m.toLocaleString('en')} | ${r.listRequests} (${r.listLowerBound}) | ${r.quietDetail} | ${r.cycleSeconds.toFixed(2)} s | ${minutes(r.listRequests)} | ${r.m.toLocaleString('en')}, ${minutes(r.m)} |`,
  );
}
console.log(
  '\n| M shipments | shipped this cycle | list + detail requests (lower bound) | Shopify requests per shipped order | requested query cost per shipped order |',
);
console.log('|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.m.toLocaleString('en')} | ${r.shipped} | ${r.shippedList} + ${r.shippedDetail} (${r.listLowerBound} + ${r.shipped}) | ${r.shopifyRequestsPerShipped.toFixed(2)} | ${r.requestedCostPerShipped.toFixed(0)} |`,
  );
}
console.log('\nShopify requests per shipped order, by operation:');
for (const r of rows) console.log(`  M=${r.m}: ${JSON.stringify(r.byOperation)}`);
await local.stop();
process.exit(0);
