/**
 * Which limit binds, measured end to end: a backlog of orders goes through one connector process
 * (bench/connector-process.ts, `connector start`) against a fake store with a standard plan's
 * cost bucket (2,000 points, 100 a second) and a partner sandbox limited to 60 requests a minute,
 * then to 600, that moves each shipment on through processing, shipped and delivered by itself.
 * An order's life ends when its delivered event is in Shopify.
 *
 * Measured over a steady window after a warm-up, from what the fake store and the sandbox saw:
 * whole lives a second, what each limit would allow (the provider: its limit ÷ partner requests
 * per order; Shopify: restore rate ÷ actual points per order over its life), which binds, and the
 * share of it used (target ≥ 0.95, with 0 THROTTLED and 0 × 429). Shopify requests and points per
 * order are each order's own (found by its ids in the request): those up to the write that ends
 * a stage (registered, progress reported, fulfilled, delivered) are that stage's, averaged over
 * the orders that finished it in the window, and summed over the stages. Partner requests per
 * order: creates per shipment, detail reads per shipment read, list pages (which serve every open
 * order) per order registered in the window.
 *
 *   npm run bench:limits   (also part of `npm run bench`)
 *   BENCH_LIMITS=60,600   partner requests a minute, one run each
 *   BENCH_WARMUP_MS, BENCH_MEASURE_MS   instead of each run's own
 *   BENCH_TRACE=1   the stages' progress every 10 s, and where the requests and jobs went
 *   PARTNER_SYNC_RESERVE, SHOPIFY_FOLLOW_UP_RESERVE, CREATE_CONCURRENCY, …   passed on to the
 *   connector
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Redis } from 'ioredis';
import { SYNC_PAGE_SIZE } from '../jobs/sync-shipments/cycle.js';
import { buildSharedParts } from '../src/compose/parts.js';
import { DEMO_SHOP, DEMO_STORE_TOKEN, DEMO_WEBHOOK_SECRET } from '../src/demo/settings.js';
import { createLogger } from '../src/log.js';
import { type PartnerSandbox, startPartnerSandbox } from '../src/sandbox/partner/index.js';
import { type FakeStore, startFakeStore } from '../src/sandbox/store/index.js';
import { startConnectorProcess, stopConnectorProcess } from './connector-process.js';
import { dropKeys, startLocalRedis } from './rig.js';
import { benchJobSettings } from './settings.js';

const STANDARD = { maximumAvailable: 2_000, restoreRate: 100 };
/**
 * Per provider limit: the backlog (enough that it never runs out in the window); the sync
 * interval (short beside an order's life, few list pages beside the budget); how long the
 * provider takes to move a shipment one status on (twice the sync interval, so that a sync sees
 * each status, as it does when they are days apart); the warm-up (the provider's first minute
 * admits a burst, the bucket must empty, whole lives must be flowing) and the window.
 */
const SETTINGS: Record<
  number,
  { orders: number; syncMs: number; advanceMs: number; warmUpMs: number; measureMs: number }
> = {
  60: { orders: 400, syncMs: 10_000, advanceMs: 20_000, warmUpMs: 180_000, measureMs: 180_000 },
  600: { orders: 500, syncMs: 5_000, advanceMs: 10_000, warmUpMs: 120_000, measureMs: 60_000 },
};
const limits = (process.env.BENCH_LIMITS ?? '60,600').split(',').map(Number);
/** Orders days old: the connector's first reconciliation pass leaves them to the benchmark. */
const OLD = new Date(Date.now() - 3 * 86_400_000).toISOString();
const FIRST_ID = 7_000_000;
/** The writes that end each stage, with or without the status metafields riding along. */
const REGISTERED = /^WriteOrderMarks$/;
const REPORTED = /^ReportFulfillmentOrderProgress(WithStatus)?$/;
const FULFILLED = /^CreateFulfillment(WithStatus)?$/;
const LIFE_END = /^CreateFulfillmentEvent(WithStatus)?$/;
const STAGES = [REGISTERED, REPORTED, FULFILLED, LIFE_END];

const local = await startLocalRedis();
const redis = new Redis(local.url, { maxRetriesPerRequest: null });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Snapshot {
  at: number;
  store: number;
  partner: number;
  used: number;
  throttled: number;
}

function snapshot(store: FakeStore, sandbox: PartnerSandbox): Snapshot {
  return {
    at: Date.now(),
    store: store.requests.length,
    partner: sandbox.requests.length,
    used: store.costBucket()!.used,
    throttled: store.costBucket()!.throttled,
  };
}

interface RunResult {
  perMinute: number;
  seconds: number;
  lives: number;
  registered: number;
  fulfilled: number;
  throttled: number;
  rateLimited: number;
  lowest: number;
  pointsUsed: number;
  partnerSent: number;
  /** Per order over its life: each stage's cost over the orders that finished it. */
  perOrder: {
    shopifyRequests: number;
    points: number;
    creates: number;
    details: number;
    /** Orders that finished each stage in the window. */
    stages: number[];
  };
  listPages: number;
  listPagesBound: number;
  cycles: number;
  maxOpen: number;
  /** In the window: Shopify requests by operation (count × actual points), partner by kind. */
  operations?: string[];
  partnerKinds?: string[];
  queues?: string[];
}

/** The order a Shopify request was about, from the ids in its variables. */
function orderOf(variables: unknown, owners: Map<string, string>): string | undefined {
  const text = JSON.stringify(variables);
  const order = /gid:\/\/shopify\/Order\/(\d+)/.exec(text);
  if (order) return order[1];
  for (const [, kind, id] of text.matchAll(
    /gid:\/\/shopify\/(FulfillmentOrder|Fulfillment)\/(\d+)/g,
  )) {
    const owner = owners.get(`${kind}/${id}`);
    if (owner) return owner;
  }
  return undefined;
}

async function run(perMinute: number): Promise<RunResult> {
  const { orders, syncMs, advanceMs } = SETTINGS[perMinute]!;
  const warmUpMs = Number(process.env.BENCH_WARMUP_MS ?? SETTINGS[perMinute]!.warmUpMs);
  const measureMs = Number(process.env.BENCH_MEASURE_MS ?? SETTINGS[perMinute]!.measureMs);
  const prefix = `bench-limits-${randomUUID().slice(0, 8)}`;
  const sandbox = await startPartnerSandbox({
    rateLimit: perMinute,
    rateWindowMs: 60_000,
    autoAdvanceMs: advanceMs,
  });
  const store = await startFakeStore({
    shop: DEMO_SHOP,
    accessToken: DEMO_STORE_TOKEN,
    webhookSecret: DEMO_WEBHOOK_SECRET,
    orders: [],
    costBucket: STANDARD,
  });
  const ids = Array.from({ length: orders }, (_, i) => String(FIRST_ID + i));
  for (const id of ids) {
    store.createOrder(
      {
        id,
        createdAt: OLD,
        updatedAt: OLD,
        lineItems: [{ title: 'Item', weight: { value: 100, unit: 'GRAMS' as const } }],
      },
      { sendWebhook: false },
    );
  }
  const token = sandbox.issueToken('demo@sandbox.local', prefix);
  const child = await startConnectorProcess(
    {
      redisUrl: local.url,
      prefix,
      partnerUrl: sandbox.url,
      partnerToken: token,
      storeUrl: store.url,
    },
    {
      ORDER_POLL_INTERVAL_MS: '3600000',
      SYNC_INTERVAL_MS: String(syncMs),
      PARTNER_RATE_LIMIT: String(perMinute),
      PARTNER_RATE_WINDOW_MS: '60000',
    },
  );

  // Open shipments at the provider, sampled, for the list pages' lower bound.
  const open: { at: number; n: number }[] = [];
  const sampler = setInterval(() => {
    const n = sandbox
      .shipments()
      .filter((s) => !['delivered', 'cancelled'].includes(s.status)).length;
    open.push({ at: Date.now(), n });
  }, 500);
  // With BENCH_TRACE, each stage's count every 10 s on stderr: how the pipeline fills.
  const count = (operation: RegExp) =>
    store.requests.filter((r) => operation.test(r.operationName ?? '') && r.outcome === 'ok')
      .length;
  const trace = process.env.BENCH_TRACE
    ? setInterval(() => {
        console.error(
          `${perMinute}/min +${((Date.now() - startedAt) / 1000).toFixed(0)} s: ${STAGES.map((s) => count(s)).join(' / ')}; partner ${sandbox.requests.length}, open ${open.at(-1)?.n}`,
        );
      }, 10_000)
    : undefined;
  const startedAt = Date.now();

  // Queued as webhooks would queue them: every order at once.
  const parts = buildSharedParts({
    redis,
    prefix,
    settings: benchJobSettings(),
    logger: createLogger({ level: 'silent' }),
  });
  const fedAt = snapshot(store, sandbox);
  for (let i = 0; i < orders; i += 100) {
    await Promise.all(ids.slice(i, i + 100).map((id) => parts.enqueueOrder(id, 'bench')));
  }
  await sleep(warmUpMs);
  const start = snapshot(store, sandbox);
  await sleep(measureMs);
  const end = snapshot(store, sandbox);
  clearInterval(sampler);
  clearInterval(trace);
  const lowest = store.costBucket()!.lowest;
  // Where the jobs stand at the end, and the first reason of each queue's failures.
  const queues: string[] = [];
  for (const queue of Object.values(parts.queues)) {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
    if (Object.values(counts).every((n) => n === 0)) continue;
    const [failed] = (counts.failed ?? 0) > 0 ? await queue.getFailed(0, 0) : [];
    queues.push(
      `${queue.name} ${Object.entries(counts)
        .filter(([, n]) => n > 0)
        .map(([state, n]) => `${state} ${n}`)
        .join(', ')}${failed ? ` (first failure: ${failed.failedReason})` : ''}`,
    );
  }

  await stopConnectorProcess(child);
  await parts.close();

  const ok = (from: Snapshot, to: Snapshot, operation: RegExp) =>
    store.requests
      .slice(from.store, to.store)
      .filter((r) => operation.test(r.operationName ?? '') && r.outcome === 'ok').length;
  if (ok(fedAt, end, REGISTERED) >= orders) console.error(`${perMinute}/min: the backlog ran out`);

  // Each order's own Shopify requests and points, and its creates and detail reads.
  const owners = new Map<string, string>();
  for (const order of store.orders()) {
    for (const fo of order.fulfillmentOrders)
      owners.set(`FulfillmentOrder/${fo.id.replace(/\D/g, '')}`, order.id);
    for (const f of order.fulfillments)
      owners.set(`Fulfillment/${f.id.replace(/\D/g, '')}`, order.id);
  }
  // An order's requests up to the write that ends a stage are that stage's: each stage's cost
  // is averaged over the orders that finished it in the window, and an order's life is the sum.
  const stageCost = STAGES.map(() => ({ n: 0, requests: 0, points: 0 }));
  const running = new Map<string, { requests: number; points: number }>();
  let unowned = 0;
  for (let i = fedAt.store; i < end.store; i += 1) {
    const r = store.requests[i]!;
    if (r.actualQueryCost === undefined) continue;
    const id = orderOf(r.variables, owners);
    if (!id) {
      unowned += 1;
      continue;
    }
    const sofar = running.get(id) ?? { requests: 0, points: 0 };
    sofar.requests += 1;
    sofar.points += r.actualQueryCost;
    running.set(id, sofar);
    const stage = r.outcome === 'ok' ? STAGES.findIndex((s) => s.test(r.operationName ?? '')) : -1;
    if (stage < 0) continue;
    running.delete(id);
    if (i < start.store) continue;
    stageCost[stage]!.n += 1;
    stageCost[stage]!.requests += sofar.requests;
    stageCost[stage]!.points += sofar.points;
  }
  const perStage = (f: (c: (typeof stageCost)[number]) => number) =>
    stageCost.reduce((sum, c) => sum + (c.n > 0 ? f(c) / c.n : 0), 0);
  const partnerLog = sandbox.requests.slice(fedAt.partner, end.partner);
  // Detail reads of each shipment read at all (one, once shipped, is the least there is).
  const reads = new Map<string, number>();
  for (const r of partnerLog) {
    const reference = /\/shipments\/([^/]+)$/.exec(r.path)?.[1];
    if (r.status !== 429 && r.method === 'GET' && reference) {
      reads.set(reference, (reads.get(reference) ?? 0) + 1);
    }
  }
  const details = [...reads.values()].reduce((a, b) => a + b, 0) / Math.max(1, reads.size);
  // A create names its reference in its body, which the log does not keep: creates sent over
  // shipments created, the same for every order.
  const creates =
    partnerLog.filter((r) => r.method === 'POST' && r.status !== 429).length /
    Math.max(1, sandbox.shipments().length);

  // List pages in the window against ⌈open / 200⌉ a cycle; each cycle starts at page 1. (A cycle
  // that waits for the budget may end less than an interval before the next one starts.)
  const window = partnerLog.filter((r) => r.at >= start.at && r.at < end.at && r.status !== 429);
  const lists = window.filter((r) => r.method === 'GET' && r.path.endsWith('/shipments'));
  let cycles = 0;
  let listPagesBound = 0;
  for (const r of lists) {
    if ((new URLSearchParams(r.query).get('page') ?? '1') === '1') {
      cycles += 1;
      const seen = open.findLast((s) => s.at <= r.at)?.n ?? 0;
      listPagesBound += Math.max(1, Math.ceil(seen / SYNC_PAGE_SIZE));
    }
  }
  const maxOpen = Math.max(
    0,
    ...open.filter((s) => s.at >= start.at && s.at < end.at).map((s) => s.n),
  );

  const result: RunResult = {
    perMinute,
    seconds: (end.at - start.at) / 1000,
    lives: ok(start, end, LIFE_END),
    registered: ok(start, end, REGISTERED),
    fulfilled: ok(start, end, FULFILLED),
    throttled: end.throttled - fedAt.throttled,
    rateLimited: partnerLog.filter((r) => r.status === 429).length,
    lowest,
    pointsUsed: end.used - start.used,
    partnerSent: window.length,
    perOrder: {
      shopifyRequests: perStage((c) => c.requests),
      points: perStage((c) => c.points),
      creates,
      details,
      stages: stageCost.map((c) => c.n),
    },
    listPages: lists.length,
    listPagesBound,
    cycles,
    maxOpen,
  };
  const operations = new Map<string, { n: number; points: number }>();
  for (const r of store.requests.slice(start.store, end.store)) {
    const key = `${r.operationName}${r.outcome === 'ok' ? '' : ` (${r.outcome})`}`;
    const op = operations.get(key) ?? { n: 0, points: 0 };
    operations.set(key, { n: op.n + 1, points: op.points + (r.actualQueryCost ?? 0) });
  }
  const partnerKinds = new Map<string, number>();
  for (const r of window) {
    const kind = `${r.method} ${r.path.replace(/\/shipments\/[^/]+/, '/shipments/{reference}').replace('/api/v1', '')}`;
    partnerKinds.set(kind, (partnerKinds.get(kind) ?? 0) + 1);
  }
  result.operations = [...operations].map(
    ([op, { n, points }]) => `${op} ${n} × ${(points / n).toFixed(0)}`,
  );
  result.partnerKinds = [...partnerKinds].map(([kind, n]) => `${kind} ${n}`);
  if (process.env.BENCH_TRACE) {
    // Each list page: when, its window, and how many shipments that window held then.
    for (const r of lists) {
      const after = Date.parse(new URLSearchParams(r.query).get('created_after') ?? '');
      const held = sandbox
        .shipments()
        .filter((s) => s.createdAt.getTime() >= after && s.createdAt.getTime() <= r.at).length;
      console.error(
        `${perMinute}/min list +${((r.at - startedAt) / 1000).toFixed(0)} s: ${r.query}, reaches back ${((r.at - after) / 1000).toFixed(0)} s, ${held} shipments`,
      );
    }
  }
  result.queues = queues;
  if (unowned > 0) console.error(`${perMinute}/min: ${unowned} Shopify requests named no order`);
  await Promise.all([sandbox.close(), store.close()]);
  await dropKeys(redis, prefix);
  return result;
}

const results: RunResult[] = [];
for (const perMinute of limits) results.push(await run(perMinute));
await redis.quit();
await local.stop();

console.log(
  `\nWhich limit binds, measured: one connector process, a standard plan's bucket (${STANDARD.maximumAvailable} points, ${STANDARD.restoreRate}/s)`,
);
console.log(
  `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
// The connector runs on its defaults unless the environment names one of these.
const tuned = [
  'PARTNER_SYNC_RESERVE',
  'SHOPIFY_FOLLOW_UP_RESERVE',
  'CREATE_CONCURRENCY',
  'MARK_CONCURRENCY',
  'SYNC_WRITE_CONCURRENCY',
].filter((name) => process.env[name] !== undefined);
console.log(
  `connector settings: ${tuned.length === 0 ? 'defaults' : tuned.map((name) => `${name}=${process.env[name]}`).join(' ')}`,
);
console.log(
  '\n| provider limit | sync interval, provider step | window | whole lives/s (registered/s, fulfilled/s) | Shopify: requests, actual points per order | Shopify bound | partner requests per order (lower bound) | provider bound | binding | share of it | THROTTLED | 429s |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
let pass = true;
for (const r of results) {
  const perSecond = (n: number) => n / r.seconds;
  const lives = perSecond(r.lives);
  // List pages serve every open order: per order registered in the window (in a steady state as
  // many as complete their lives).
  const lists = r.listPages / Math.max(1, r.registered);
  const listsBound = r.listPagesBound / Math.max(1, r.registered);
  const partnerPerOrder = r.perOrder.creates + r.perOrder.details + lists;
  const partnerBound = r.perOrder.creates + 1 + listsBound;
  const shopifyAllows = STANDARD.restoreRate / r.perOrder.points;
  const providerAllows = r.perMinute / 60 / partnerPerOrder;
  const binding = shopifyAllows < providerAllows ? 'Shopify' : 'the provider';
  const share = lives / Math.min(shopifyAllows, providerAllows);
  if (share < 0.95 || r.throttled > 0 || r.rateLimited > 0) pass = false;
  console.log(
    `| ${r.perMinute}/min | ${SETTINGS[r.perMinute]!.syncMs / 1000} s, ${SETTINGS[r.perMinute]!.advanceMs / 1000} s | ${r.seconds.toFixed(0)} s | **${lives.toFixed(2)}** (${perSecond(r.registered).toFixed(2)}, ${perSecond(r.fulfilled).toFixed(2)}) | ${r.perOrder.shopifyRequests.toFixed(2)}, ${r.perOrder.points.toFixed(1)} | ${shopifyAllows.toFixed(2)} | ${partnerPerOrder.toFixed(2)} (${partnerBound.toFixed(2)}) | ${providerAllows.toFixed(2)} | ${binding} | **${(share * 100).toFixed(1)}%** | ${r.throttled} | ${r.rateLimited} |`,
  );
}
console.log('\nIn the window:');
for (const r of results) {
  console.log(
    `  ${r.perMinute}/min: stages finished (registered / progress reported / fulfilled / delivered) ${r.perOrder.stages.join(' / ')}; partner requests ${r.partnerSent} (${((r.partnerSent / r.seconds / (r.perMinute / 60)) * 100).toFixed(1)}% of the limit), list pages ${r.listPages} in ${r.cycles} cycles (lower bound ${r.listPagesBound}), most open ${r.maxOpen}; Shopify points ${r.pointsUsed.toFixed(0)} (${((r.pointsUsed / r.seconds / STANDARD.restoreRate) * 100).toFixed(1)}% of the refill), lowest level ${Math.floor(r.lowest)}`,
  );
}
if (process.env.BENCH_TRACE) {
  for (const r of results) {
    console.log(`\n${r.perMinute}/min, Shopify in the window: ${r.operations?.join(', ')}`);
    console.log(`${r.perMinute}/min, partner in the window: ${r.partnerKinds?.join(', ')}`);
    console.log(`${r.perMinute}/min, queues at the end: ${r.queues?.join('; ')}`);
  }
}
if (!pass) {
  console.error('Below 0.95 of the binding limit, or THROTTLED, or 429');
  process.exitCode = 1;
}
process.exit();
