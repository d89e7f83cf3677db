/**
 * Throughput of the connector's own work when the APIs are not the limit, against a local
 * partner sandbox and fake store of each scenario's own with real Redis, each connector a child
 * process as `connector start` runs (bench/connector-process.ts, settings from the environment):
 *
 * 1. Shopify order reads per registered order while a backlog waits for the partner budget
 *    (budget 30 requests a second, 300 orders queued), with 1 and 3 connector processes.
 * 2. A webhook burst: 200 signed orders/create deliveries a second for 10 s into one connector
 *    whose workers drain a backlog meanwhile; answer times p50/p99 and 503s.
 * 3. End to end, one process: N orders registered at the provider and written back to Shopify.
 *
 *   npm run bench:throughput        (also part of `npm run bench`)
 *   BENCH_ORDERS=3000 (scenario 3) BENCH_BURST_RATE=200 BENCH_BURST_SECONDS=10
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Redis } from 'ioredis';
import { loadConfig } from '../config/index.js';
import { buildStoreClient } from '../src/compose/clients.js';
import { buildSharedParts, type SharedParts } from '../src/compose/parts.js';
import { freePort } from '../src/demo/free-port.js';
import { DEMO_SHOP, DEMO_STORE_TOKEN, DEMO_WEBHOOK_SECRET, demoEnv } from '../src/demo/settings.js';
import { createLogger } from '../src/log.js';
import { startPartnerSandbox } from '../src/sandbox/partner/index.js';
import { type FakeStore, startFakeStore } from '../src/sandbox/store/index.js';
import { orderWebhookPayload, webhookHeaders } from '../src/sandbox/store/webhooks.js';
import { dropKeys, startLocalRedis } from './rig.js';
import { benchJobSettings } from './settings.js';
import type { BurstOrder, BurstResult } from './webhook-sender.js';

const E2E_ORDERS = Number(process.env.BENCH_ORDERS ?? 3_000);
const BACKLOG_ORDERS = 300;
const BACKLOG_LIMIT = 30;
const BACKLOG_WINDOW_MS = 1_000;
const BURST_RATE = Number(process.env.BENCH_BURST_RATE ?? 200);
const BURST_SECONDS = Number(process.env.BENCH_BURST_SECONDS ?? 10);
const BURST_BACKLOG = 1_000;
/** Settings for every connector process; unset, the defaults of config/index.ts apply. */
const CONCURRENCY_ENV = Object.fromEntries(
  ['CREATE_CONCURRENCY', 'MARK_CONCURRENCY', 'SYNC_WRITE_CONCURRENCY']
    .filter((name) => process.env[name])
    .map((name) => [name, process.env[name]!]),
);

/** This benchmark run on main at 33634f1 (2026-11-22), before this work; see bench/RESULTS.md. */
const BEFORE = {
  readsPerOrder1: 1.43,
  readsPerOrder3: 1.95,
  webhookP50Ms: 36.5,
  webhookP99Ms: 262.8,
  registeredPerS: 65,
  writtenBackPerS: 65,
};

const logger = createLogger({ level: 'silent' });
const local = await startLocalRedis();
const redis = new Redis(local.url, { maxRetriesPerRequest: null });
/** Orders days old: the connector's first reconciliation pass leaves them to the benchmark. */
const OLD = new Date(Date.now() - 3 * 86_400_000).toISOString();
let nextId = 8_000_000;

function seedOrders(store: FakeStore, count: number): string[] {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = String(nextId++);
    store.createOrder(
      {
        id,
        createdAt: OLD,
        updatedAt: OLD,
        lineItems: [{ title: 'Item', weight: { value: 100, unit: 'GRAMS' as const } }],
      },
      { sendWebhook: false },
    );
    ids.push(id);
  }
  return ids;
}

let debugParts: SharedParts | undefined;

interface Run {
  prefix: string;
  parts: SharedParts;
  store: FakeStore;
  start(processes: number, env?: Record<string, string>): Promise<string[]>;
  /** CPU time the connector processes have used so far, in ms (all threads, user + system). */
  connectorCpuMs(): Promise<number>;
  close(): Promise<void>;
}

/** A fresh key prefix, its shared parts, and connector processes started on demand. */
async function newRun(name: string): Promise<Run> {
  const prefix = `bench-tp-${name}-${randomUUID().slice(0, 8)}`;
  const parts = buildSharedParts({
    redis,
    prefix,
    // The connector processes' values (demoEnv, ORDER_POLL_INTERVAL_MS below), not the defaults.
    settings: benchJobSettings({
      createJob: { attempts: 5, backoff: { firstMs: 1_000, maxMs: 5_000 } },
      intake: { pollIntervalMs: 600_000, pollOverlapMs: 600_000, firstLookbackDays: 1 },
    }),
    logger,
  });
  debugParts = parts;
  // A provider of its own: the status sync must not find the shipments of an earlier run.
  const sandbox = await startPartnerSandbox({ rateLimit: 1_000_000_000, rateWindowMs: 60_000 });
  // A store of its own: an earlier run's mark-order jobs updated its orders just now, so this
  // run's first reconciliation pass (a new prefix: no watermark) would find them and register
  // them again, reads and all, as it should after Redis lost its data.
  const store = await startFakeStore({
    shop: DEMO_SHOP,
    accessToken: DEMO_STORE_TOKEN,
    webhookSecret: DEMO_WEBHOOK_SECRET,
    orders: [],
    // Reported in every answer's throttleStatus: a bucket no connector can empty (as if unlimited).
    costBucket: { maximumAvailable: 1_000_000_000, restoreRate: 1_000_000_000 },
  });
  const token = sandbox.issueToken('demo@sandbox.local', prefix);
  const env = (port: number) => ({
    ...demoEnv({
      redisUrl: local.url,
      prefix,
      port,
      partnerUrl: sandbox.url,
      partnerToken: token,
      storeUrl: store.url,
    }),
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    ORDER_POLL_INTERVAL_MS: '600000',
    SYNC_INTERVAL_MS: '600000',
    // The provider is not the limit here (the backlog scenario sets its own).
    PARTNER_RATE_LIMIT: '1000000000',
    ...CONCURRENCY_ENV,
  });
  // The shared Shopify budget learns the bucket from answers; until then it assumes a standard
  // plan's 1,000 points. One read through it first, so the run starts from what the store says.
  const [probeId] = seedOrders(store, 1);
  await buildStoreClient(loadConfig(env(1)).shopify, logger, undefined, undefined, {
    redis,
    prefix,
  }).getOrder(probeId!);
  const children: ReturnType<typeof fork>[] = [];
  return {
    prefix,
    parts,
    store,
    async start(processes, extra = {}) {
      const urls: string[] = [];
      for (let i = 0; i < processes; i += 1) {
        const child = fork(new URL('./connector-process.ts', import.meta.url), {
          execArgv: [
            '--import',
            'tsx',
            ...(process.env.BENCH_PROF
              ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`]
              : []),
          ],
          env: { ...process.env, ...env(await freePort('127.0.0.1')), ...extra },
        });
        children.push(child);
        const ready = await new Promise<{ url?: string }>((resolve, reject) => {
          child.once('message', (message) => resolve(message as { url?: string }));
          child.once('exit', (code) => reject(new Error(`connector process exited (${code})`)));
        });
        if (ready.url) urls.push(ready.url);
      }
      return urls;
    },
    async connectorCpuMs() {
      const used = await Promise.all(
        children.map(
          (child) =>
            new Promise<number>((resolve) => {
              const answer = (message: unknown) => {
                const cpu = (message as { cpu?: NodeJS.CpuUsage }).cpu;
                if (!cpu) return;
                child.off('message', answer);
                resolve((cpu.user + cpu.system) / 1_000);
              };
              child.on('message', answer);
              child.send('cpu');
            }),
        ),
      );
      return used.reduce((sum, ms) => sum + ms, 0);
    },
    async close() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
            }),
        ),
      );
      await Promise.all([parts.close(), sandbox.close(), store.close()]);
      await dropKeys(redis, prefix);
    },
  };
}

async function enqueueAll(parts: SharedParts, ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 50) {
    await Promise.all(ids.slice(i, i + 50).map((id) => parts.enqueueOrder(id, 'bench')));
  }
}

const progress = (line: string) => process.stderr.write(`${line}\n`);

async function until(check: () => Promise<boolean>, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let said = Date.now();
  while (!(await check())) {
    if (process.env.BENCH_DEBUG && Date.now() - said > 1_000) {
      said = Date.now();
      const counts = await Promise.all(
        Object.entries(debugParts?.queues ?? {}).map(async ([name, q]) => [
          name,
          await q.getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed'),
        ]),
      );
      progress(
        JSON.stringify(counts.filter(([, c]) => Object.values(c as object).some((n) => n > 0))),
      );
    }
    if (Date.now() > deadline) throw new Error('benchmark timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function completed(parts: SharedParts, queue: 'createShipment' | 'markOrder') {
  return (await parts.queues[queue].getJobCounts('completed')).completed ?? 0;
}

function getOrderReads(store: FakeStore, since: number): number {
  return store.requests.slice(since).filter((r) => r.operationName === 'GetOrder').length;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** 1. Reads per registered order while the partner budget holds a backlog back. */
async function backlogReads(processes: number) {
  const run = await newRun(`backlog${processes}`);
  try {
    const ids = seedOrders(run.store, BACKLOG_ORDERS);
    await enqueueAll(run.parts, ids);
    const since = run.store.requests.length;
    const started = performance.now();
    await run.start(processes, {
      PARTNER_RATE_LIMIT: String(BACKLOG_LIMIT),
      PARTNER_RATE_WINDOW_MS: String(BACKLOG_WINDOW_MS),
    });
    // Every order's own job done (a count of completed jobs would also count any other job).
    const ownJobsDone = async () => {
      const states = await Promise.all(
        ids.map((id) => run.parts.queues.createShipment.getJobState(`order-${id}`)),
      );
      return states.every((state) => state === 'completed');
    };
    await until(ownJobsDone);
    const seconds = (performance.now() - started) / 1000;
    const registered = (await Promise.all(ids.map((id) => run.parts.records.get(id)))).filter(
      (r) => r?.state === 'registered',
    ).length;
    // check-order-edit reads the order once a run; those reads are not the create path's.
    const editChecks =
      (await run.parts.queues.checkOrderEdit.getJobCounts('completed')).completed ?? 0;
    const reads = getOrderReads(run.store, since);
    return { processes, registered, reads, editChecks, createReads: reads - editChecks, seconds };
  } finally {
    await run.close();
  }
}

/** 2. Webhook answers while the workers drain a backlog. */
async function webhookBurst() {
  const run = await newRun('burst');
  try {
    await enqueueAll(run.parts, seedOrders(run.store, BURST_BACKLOG));
    const signed = (id: string) => {
      const order = run.store.order(id)!;
      const body = JSON.stringify(orderWebhookPayload(order));
      return {
        body,
        headers: webhookHeaders({
          topic: 'orders/create',
          shop: DEMO_SHOP,
          secret: DEMO_WEBHOOK_SECRET,
          apiVersion: '2026-10',
          body,
        }),
      };
    };
    const deliveries = seedOrders(run.store, BURST_RATE * BURST_SECONDS).map(signed);
    // Two seconds at a quarter of the rate first, not measured (bench/webhook-sender.ts).
    const warmUp = seedOrders(run.store, Math.ceil(BURST_RATE / 2)).map(signed);
    const [url] = await run.start(1, { BENCH_HTTP: 'true' });
    // The workers are draining the backlog: wait until they are well under way.
    await until(async () => (await completed(run.parts, 'createShipment')) >= 50);

    const sender = fork(new URL('./webhook-sender.ts', import.meta.url), {
      execArgv: ['--import', 'tsx'],
    });
    const answered = new Promise<BurstResult>((resolve, reject) => {
      sender.once('message', (message) => resolve(message as BurstResult));
      sender.once('exit', (code) => reject(new Error(`webhook sender exited (${code})`)));
    });
    sender.send({ url: url!, rate: BURST_RATE, warmUp, deliveries } satisfies BurstOrder);
    const { times, statuses: answers, sendSeconds } = await answered;
    if (process.env.BENCH_DEBUG) {
      for (let i = 0; i < times.length; i += BURST_RATE) {
        const second = times.slice(i, i + BURST_RATE).sort((a, b) => a - b);
        progress(
          `second ${i / BURST_RATE}: p50 ${percentile(second, 50).toFixed(0)} ms, max ${second.at(-1)?.toFixed(0)} ms`,
        );
      }
    }
    const statuses = new Map<number, number>();
    for (const status of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const backlogDone = await completed(run.parts, 'createShipment');
    times.sort((a, b) => a - b);
    return {
      deliveries: deliveries.length,
      rate: deliveries.length / sendSeconds,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      max: times.at(-1) ?? NaN,
      ok: statuses.get(200) ?? 0,
      unavailable: statuses.get(503) ?? 0,
      other: deliveries.length - (statuses.get(200) ?? 0) - (statuses.get(503) ?? 0),
      registeredMeanwhile: backlogDone,
    };
  } finally {
    await run.close();
  }
}

/** Redis's own CPU time so far (INFO cpu), in ms; other clients of that Redis count too. */
async function redisCpuMs(): Promise<number> {
  const info = await redis.info('cpu');
  const seconds = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1_000;
}

const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1_000;
};

/** 3. Orders registered and written back, one process, from a queued backlog. */
async function endToEnd() {
  const run = await newRun('e2e');
  try {
    const ids = seedOrders(run.store, E2E_ORDERS);
    await enqueueAll(run.parts, ids);
    const started = performance.now();
    await run.start(1);
    // From the connector's start on (its start-up is not per-order work): the connector, this
    // process (the fake store and sandbox, and the polling below, which is little) and Redis.
    const cpuAtStart = {
      connector: await run.connectorCpuMs(),
      standIns: cpuMs(),
      redis: await redisCpuMs(),
    };
    let registeredAt = 0;
    await until(async () => {
      const [created, marked] = await Promise.all([
        completed(run.parts, 'createShipment'),
        completed(run.parts, 'markOrder'),
      ]);
      if (!registeredAt && created >= ids.length) registeredAt = performance.now();
      return created >= ids.length && marked >= ids.length;
    });
    const seconds = (performance.now() - started) / 1000;
    const perOrder = (ms: number) => ms / ids.length;
    const cpu = {
      connector: perOrder((await run.connectorCpuMs()) - cpuAtStart.connector),
      standIns: perOrder(cpuMs() - cpuAtStart.standIns),
      redis: perOrder((await redisCpuMs()) - cpuAtStart.redis),
    };
    const registeredSeconds = (registeredAt - started) / 1000;
    const marked = ids.filter((id) => run.store.order(id)?.tags.includes('shipment-registered'));
    return {
      cpu,
      orders: ids.length,
      registeredPerS: ids.length / registeredSeconds,
      endToEndPerS: ids.length / seconds,
      seconds,
      markedInStore: marked.length,
    };
  } finally {
    await run.close();
  }
}

const only = process.env.BENCH_ONLY;
progress('backlog, 1 process…');
const one = only && only !== 'backlog' ? undefined : await backlogReads(1);
progress('backlog, 3 processes…');
const three = only && only !== 'backlog' ? undefined : await backlogReads(3);
progress('webhook burst…');
const burst = only && only !== 'burst' ? undefined : await webhookBurst();
progress('end to end…');
const e2e = only && only !== 'e2e' ? undefined : await endToEnd();

await redis.quit();

const cpu = os.cpus();
const f = (n: number, digits = 2) => n.toFixed(digits);
console.log(
  `\nThroughput, ${new Date().toISOString().slice(0, 10)}, ${cpu.length} × ${cpu[0]?.model.trim()}, ` +
    `Node ${process.version}; settings: ${JSON.stringify(CONCURRENCY_ENV) === '{}' ? 'defaults' : JSON.stringify(CONCURRENCY_ENV)}\n`,
);
if (one && three) {
  console.log(
    `1. Shopify order reads per registered order, backlog of ${BACKLOG_ORDERS} held to ${BACKLOG_LIMIT} creates per ${BACKLOG_WINDOW_MS / 1000} s`,
  );
  console.log(
    '| processes | registered | GetOrder reads (of them edit checks) | create reads per registered order | seconds | before (main) |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const [r, before] of [
    [one, BEFORE.readsPerOrder1],
    [three, BEFORE.readsPerOrder3],
  ] as const) {
    console.log(
      `| ${r.processes} | ${r.registered} | ${r.reads} (${r.editChecks}) | ${f(r.createReads / r.registered)} | ${f(r.seconds, 1)} | ${before} |`,
    );
  }
}
if (burst) {
  console.log(
    `\n2. Webhook burst: ${burst.deliveries} orders/create at ${f(burst.rate, 0)}/s into one connector draining a backlog (${burst.registeredMeanwhile} registered by the end)`,
  );
  console.log('| | p50 | p99 | max | 200s | 503s | other |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(
    `| after | ${f(burst.p50, 1)} ms | ${f(burst.p99, 1)} ms | ${f(burst.max, 0)} ms | ${burst.ok} | ${burst.unavailable} | ${burst.other} |`,
  );
  console.log(
    `| before (main) | ${BEFORE.webhookP50Ms} ms | ${BEFORE.webhookP99Ms} ms | | 2000 | 0 | 0 |`,
  );
}
if (e2e) {
  console.log(`\n3. End to end, one process, ${e2e.orders} orders`);
  console.log('| | registered per s | registered and written back per s | seconds |');
  console.log('|---|---|---|---|');
  console.log(
    `| after | ${f(e2e.registeredPerS, 0)} | ${f(e2e.endToEndPerS, 0)} | ${f(e2e.seconds, 1)} |`,
  );
  console.log(`| before (main) | ${BEFORE.registeredPerS} | ${BEFORE.writtenBackPerS} | |`);
  console.log(
    `CPU ms per order: connector ${f(e2e.cpu.connector)}, fake store + sandbox ${f(e2e.cpu.standIns)}, Redis ${f(e2e.cpu.redis)}`,
  );
  if (e2e.markedInStore !== e2e.orders) {
    console.log(`\nOnly ${e2e.markedInStore} of ${e2e.orders} orders carry the registered tag.`);
    process.exitCode = 1;
  }
}
