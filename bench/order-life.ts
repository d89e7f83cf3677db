/**
 * What an order costs over its whole life (paid → registered → processing → shipped →
 * delivered): Shopify requests and actual points, and partner requests against their lower
 * bound (1 create + 1 detail once shipped + ⌈open / 200⌉ list pages a cycle). N orders go
 * through the connector's own jobs and sync cycles (one cycle after registration with nothing
 * new, then one a stage) against the local partner sandbox and fake store with real Redis. Every
 * webhook goes through the connector's intake, and a reconciliation pass follows each step (its
 * listing, a cost per pass rather than per order, is counted apart).
 *
 *   npm run bench:life   (also part of `npm run bench`)
 *   BENCH_ORDERS=100 BENCH_REPORT_PROGRESS=false (progress reports off)
 */

import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Queue } from 'bullmq';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { reconcileOrders } from '../jobs/reconcile-orders/reconcile.js';
import { runSyncCycle, SYNC_PAGE_SIZE } from '../jobs/sync-shipments/cycle.js';
import { buildSharedParts } from '../src/compose/parts.js';
import { startWorkers } from '../src/compose/workers.js';
import { createLogger } from '../src/log.js';
import { webhookRoutes } from '../src/server/webhook-route.js';
import type { StoreRequestOutcome } from '../src/store/index.js';
import { createWebhookVerifier } from '../src/store/webhooks.js';
import { dropKeys, startBenchSandbox, startBenchStore, startLocalRedis } from './rig.js';
import {
  BENCH_STORE,
  benchJobSettings,
  benchPartnerSide,
  benchStoreClient,
  SYNC_SETTINGS,
} from './settings.js';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100);
/** Reconciliation's page of orders updated since its watermark. */
const RECONCILIATION_LISTING = 'ListOrdersUpdatedSince';
const STAGES = ['processing', 'shipped', 'delivered'] as const;
const logger = createLogger({ level: 'silent' });

export interface OrderLife {
  orders: number;
  cycles: number;
  /** Orders Shopify shows delivered at the end (the DELIVERED event, or the status metafield). */
  showDelivered: number;
  /** Shopify requests of each step, by operation (all orders). */
  phases: string[];
  /** Reconciliation's listing over all its passes (any edit checks it queued are in `shopify`). */
  reconciliation: { passes: number; requests: number; actual: number };
  shopify: {
    requests: number;
    actual: number;
    /** Requests and actual points of each operation (all orders). */
    byOperation: Map<string, { requests: number; actual: number }>;
  };
  partner: { requests: number; lowerBound: number; byKind: Map<string, number> };
}

/** Runs N orders through their lives; figures are totals (divide by `orders`). */
export async function measureOrderLife(orders: number, redisUrl: string): Promise<OrderLife> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const prefix = `bench-life-${randomUUID().slice(0, 8)}`;
  const sandbox = await startBenchSandbox();
  const parts = buildSharedParts({
    redis,
    prefix,
    settings: benchJobSettings({
      sync: { ...SYNC_SETTINGS, reportProgress: process.env.BENCH_REPORT_PROGRESS !== 'false' },
    }),
    logger,
  });
  // The connector's webhook intake: Shopify sends orders/updated for its own writes too, and each
  // one a registered order gets may cost an order read.
  const intake = Fastify();
  let deliveries = 0;
  intake.addHook('onRequest', async () => {
    deliveries += 1;
  });
  intake.addHook('onResponse', async () => {
    deliveries -= 1;
  });
  await intake.register(async (scope) =>
    webhookRoutes(scope, {
      verify: createWebhookVerifier({
        webhookSecret: BENCH_STORE.webhookSecret,
        shop: BENCH_STORE.shop,
      }),
      acceptWebhook: (event, delivery) => parts.acceptWebhook(event, delivery),
      redis,
      prefix,
      counters: parts.counters,
      logger,
    }),
  );
  const intakeUrl = await intake.listen({ port: 0, host: '127.0.0.1' });
  const store = await startBenchStore({ orders: [], webhookUrl: `${intakeUrl}/webhooks/shopify` });
  const { partner } = benchPartnerSide(sandbox.url, redis, prefix, logger);
  const seen: StoreRequestOutcome[] = [];
  const storeClient = benchStoreClient(store.url, logger, {
    onRequest: (outcome) => seen.push(outcome),
  });
  const context = { ...parts, store: storeClient, partner };
  const ids = Array.from({ length: orders }, (_, i) => String(30_000_000 + i));
  // Each order reaches the connector as in a store: its orders/create webhook, through the intake.
  for (const id of ids) {
    await store.createOrder({
      id,
      lineItems: [{ title: 'Item', weight: { value: 100, unit: 'GRAMS' as const } }],
    });
  }
  const partnerBefore = sandbox.requests.length;
  const workers = startWorkers(context, { connection: redis });
  const all = Object.values(parts.queues) as Queue[];
  const idle = async () => {
    const counts = await Promise.all(
      all.map((q) => q.getJobCounts('waiting', 'active', 'delayed', 'prioritized')),
    );
    return counts.every((c) => Object.values(c).every((n) => n === 0));
  };
  const quiet = async () => deliveries === 0 && (await idle());
  // Webhooks follow Shopify's answers a moment later: quiet twice, 300 ms apart.
  const settle = async () => {
    for (;;) {
      while (!(await quiet())) await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 300));
      if (await quiet()) return;
    }
  };

  await settle();
  // A cycle right after the registrations (nothing changed at the provider), then one a stage.
  let cycles = 0;
  let listPagesBound = 0;
  const phases: { phase: string; requests: number }[] = [];
  let counted = 0;
  const phase = (name: string) => {
    const ok = seen.filter((s) => s.outcome === 'ok');
    const byOp = new Map<string, { n: number; points: number }>();
    for (const s of ok.slice(counted)) {
      if (s.operation === RECONCILIATION_LISTING) continue;
      const row = byOp.get(s.operation) ?? { n: 0, points: 0 };
      byOp.set(s.operation, { n: row.n + 1, points: row.points + (s.cost?.actual ?? 0) });
    }
    phases.push({
      phase: `${name}: ${[...byOp].map(([op, { n, points }]) => `${op} ${(n / orders).toFixed(2)} × ${(points / n).toFixed(0)} points`).join(', ')}`,
      requests: ok.length - counted,
    });
    counted = ok.length;
  };
  phase('registration');
  // Each pass looks back over the whole run: every write of the orders is in its window.
  const reconcileSince = new Date(Date.now() - 60_000);
  let passes = 0;
  const cycle = async (open: number) => {
    cycles += 1;
    listPagesBound += Math.max(1, Math.ceil(open / SYNC_PAGE_SIZE));
    await runSyncCycle({ ...context, logger }, `bench-life-${cycles}`);
    await settle();
    passes += 1;
    await reconcileOrders(reconcileSince, 'reconcile', {
      ...context,
      eligibility: parts.settings.eligibility,
    });
    await settle();
  };
  await cycle(orders);
  phase('cycle, nothing new');
  for (const stage of STAGES) {
    // The provider's times are whole seconds: each stage in a second of its own, as in life.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    for (const id of ids) sandbox.advance(id, stage);
    await cycle(orders);
    phase(`cycle, ${stage}`);
  }
  await Promise.all(workers.map((w) => w.close()));
  // What staff see at the end: the order delivered, by its fulfillment's DELIVERED event (with
  // the tracking) or, where Shopify could not show it, the status metafield.
  const shown = store
    .orders()
    .filter((o) => ids.includes(o.id.replace(/\D/g, '')))
    .filter(
      (o) =>
        o.fulfillments.some((f) => f.displayStatus === 'DELIVERED' && f.trackingInfo.length > 0) ||
        o.metafields.some((m) => m.key === 'status' && m.value === 'delivered'),
    ).length;

  const byOperation = new Map<string, { requests: number; actual: number }>();
  let actual = 0;
  const reconciliation = { passes, requests: 0, actual: 0 };
  for (const { operation, outcome, cost } of seen) {
    if (outcome !== 'ok') continue;
    if (operation === RECONCILIATION_LISTING) {
      reconciliation.requests += 1;
      reconciliation.actual += cost?.actual ?? 0;
      continue;
    }
    const row = byOperation.get(operation) ?? { requests: 0, actual: 0 };
    byOperation.set(operation, {
      requests: row.requests + 1,
      actual: row.actual + (cost?.actual ?? 0),
    });
    actual += cost?.actual ?? 0;
  }
  const byKind = new Map<string, number>();
  const partnerRequests = sandbox.requests.slice(partnerBefore);
  for (const r of partnerRequests) {
    const kind = `${r.method} ${r.path.replace(/\/shipments\/[^/]+/, '/shipments/{reference}')}`;
    byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
  }
  await parts.close();
  await dropKeys(redis, prefix);
  await redis.quit();
  await Promise.all([sandbox.close(), store.close(), intake.close()]);
  return {
    orders,
    cycles,
    showDelivered: shown,
    phases: phases.map((p) => p.phase),
    reconciliation,
    shopify: {
      requests: [...byOperation.values()].reduce((a, b) => a + b.requests, 0),
      actual,
      byOperation,
    },
    partner: {
      requests: partnerRequests.length,
      // 1 create and 1 detail read (once shipped) per order, and the list pages of each cycle.
      lowerBound: 2 * orders + listPagesBound,
      byKind,
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const local = await startLocalRedis();
  const life = await measureOrderLife(ORDERS, local.url);
  await local.stop();
  const per = (n: number) => (n / life.orders).toFixed(2);
  console.log(
    `\nAn order's life, ${life.orders} orders, ${life.cycles} sync cycles; ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
  );
  console.log(
    `Shopify: ${per(life.shopify.requests)} requests and ${per(life.shopify.actual)} actual points per order`,
  );
  for (const line of life.phases) console.log(`  ${line}`);
  console.log(
    `  reconciliation, a pass after each step: ${life.reconciliation.requests} listing requests, ${life.reconciliation.actual} actual points over ${life.reconciliation.passes} passes (a cost per pass, not per order)`,
  );
  console.log('\n| kind | requests per order | actual points per order |\n|---|---|---|');
  for (const [operation, row] of life.shopify.byOperation) {
    console.log(`| ${operation} | ${per(row.requests)} | ${per(row.actual)} |`);
  }
  console.log('');
  console.log(`  orders showing the delivered status at the end: ${life.showDelivered}`);
  console.log(
    `Partner: ${per(life.partner.requests)} requests per order (lower bound ${per(life.partner.lowerBound)})`,
  );
  for (const [kind, n] of life.partner.byKind) console.log(`  ${kind}: ${n}`);

  // Which limit binds a store on the standard plan (100 points a second), by the figures above.
  const pointsPerOrder = life.shopify.actual / life.orders;
  const partnerPerOrder = life.partner.requests / life.orders;
  console.log(
    '\n| provider limit | Shopify bound (orders/s) | provider bound (orders/s) | binding limit |',
  );
  console.log('|---|---|---|---|');
  for (const perMinute of [60, 600]) {
    const shopify = 100 / pointsPerOrder;
    const partner = perMinute / 60 / partnerPerOrder;
    console.log(
      `| ${perMinute}/min | ${shopify.toFixed(2)} | ${partner.toFixed(2)} | ${shopify < partner ? 'Shopify' : 'provider'} |`,
    );
  }
  process.exit(0);
}
