/**
 * What the connector keeps in Redis, and what the sync's process needs in memory:
 *
 * 1. Bytes and keys per order: N orders go the whole way through the connector's own jobs
 *    (registered, marks written back, shipped and fulfilled, delivered), against the local partner
 *    sandbox and fake store; then every key under the prefix is weighed with MEMORY USAGE. Every
 *    completed job is still kept at that point (all are younger than their removeOnComplete age),
 *    so this is the most an order costs while its jobs are kept.
 * 2. A sync cycle over 100,000 followed shipments (BENCH_FOOTPRINT_TRACKED): the peak RSS of the
 *    process that runs it (a child process of its own, so the sandbox's memory is not counted),
 *    and Redis's bytes per followed shipment. Twice: the cycle alone (bench/sync-process.ts), and
 *    `connector start` as deployed (dist/, workers in their own thread, the intake and Bull Board
 *    up) through its first scheduled cycle, whose peak is the kernel's VmHWM.
 *
 *   npm run bench:footprint     (also part of `npm run bench`)
 *
 * BENCH_FOOTPRINT_PART=orders measures part 1 alone; BENCH_FOOTPRINT_PART=start measures `connector start` alone (threaded, then --one-thread),
 * BENCH_FOOTPRINT_RUNS times each, alternately: the peak RSS is noisy, one run says little.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { JOB_CATALOG } from '../jobs/catalog.js';
import { orderJobId } from '../jobs/create-shipment/job.js';
import type { AnyJobDefinition } from '../jobs/job-definition.js';
import { runSyncCycle } from '../jobs/sync-shipments/cycle.js';
import { noteRequestsOnTimeline } from '../src/compose/clients.js';
import { buildSharedParts } from '../src/compose/parts.js';
import { startWorkers } from '../src/compose/workers.js';
import { freePort } from '../src/demo/free-port.js';
import { DEMO_SHOP, DEMO_STORE_TOKEN, DEMO_WEBHOOK_SECRET, demoEnv } from '../src/demo/settings.js';
import { createLogger } from '../src/log.js';
import { TIMELINE_DAYS } from '../src/records/order-timeline.js';
import { startFakeStore } from '../src/sandbox/store/index.js';
import {
  dropKeys,
  followListedShipments,
  startBenchSandbox,
  startBenchStore,
  startLocalRedis,
} from './rig.js';
import { benchJobSettings, benchPartnerSide, benchStoreClient, SANDBOX_TOKEN } from './settings.js';

const local = await startLocalRedis();
const ORDERS = Number(process.env.BENCH_FOOTPRINT_ORDERS ?? 1_000);
const TRACKED = Number(process.env.BENCH_FOOTPRINT_TRACKED ?? 100_000);
const START_ONLY = process.env.BENCH_FOOTPRINT_PART === 'start';
const ORDERS_ONLY = process.env.BENCH_FOOTPRINT_PART === 'orders';
const RUNS = Number(process.env.BENCH_FOOTPRINT_RUNS ?? 1);
const logger = createLogger({ level: 'silent' });
const settings = benchJobSettings();

/** MEMORY USAGE of every key under the prefix, summed by what the key holds. */
async function weigh(redis: Redis, prefix: string) {
  const groups = new Map<string, { keys: number; bytes: number }>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    const pipeline = redis.pipeline();
    for (const key of keys) pipeline.memory('USAGE', key, 'SAMPLES', '0');
    const sizes = (await pipeline.exec()) ?? [];
    keys.forEach((key, i) => {
      const group = groupOf(key.slice(prefix.length + 1));
      const entry = groups.get(group) ?? { keys: 0, bytes: 0 };
      entry.keys += 1;
      entry.bytes += Number(sizes[i]?.[1] ?? 0);
      groups.set(group, entry);
    });
  } while (cursor !== '0');
  return groups;
}

/** `order:1` → `order record`, `mark-order:registered-1` → `mark-order job`, … */
function groupOf(rest: string): string {
  if (/^order:\d+$/.test(rest)) return 'order record';
  if (/^order:\d+:/.test(rest)) return 'order notes (rerun, event-run)';
  if (/^timeline:\d+$/.test(rest)) return 'order timeline';
  if (/^shipment:[^:]+$/.test(rest)) return 'shipment record';
  if (/^shipment:/.test(rest)) return 'shipment locks';
  const [queue, second, third] = rest.split(':');
  if (third === 'logs') return `${queue} job logs`;
  if (second && third === undefined && /-\d|^\d/.test(second)) return `${queue} job`;
  if (['completed', 'failed'].includes(second ?? '')) return `${queue} ${second} index`;
  if (second === 'events') return `${queue} events stream (capped)`;
  if (second === 'metrics') return `${queue} metrics (capped)`;
  return `${queue}${second ? `:${second}` : ''}`;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not done within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function idle(queues: Queue[]): Promise<boolean> {
  const counts = await Promise.all(
    queues.map((q) => q.getJobCounts('waiting', 'active', 'delayed', 'prioritized')),
  );
  return counts.every((c) => Object.values(c).every((n) => n === 0));
}

/** Part 1: every key an order leaves, after the whole flow. */
async function perOrder(n: number) {
  const redis = new Redis(local.url, { maxRetriesPerRequest: null });
  const prefix = `bench-footprint-${randomUUID().slice(0, 8)}`;
  const sandbox = await startBenchSandbox();
  const store = await startBenchStore({ orders: [] });
  const parts = buildSharedParts({ redis, prefix, settings, logger });
  const { partner } = benchPartnerSide(
    sandbox.url,
    redis,
    prefix,
    logger,
    {},
    noteRequestsOnTimeline(parts.timeline, logger),
  );
  const storeClient = benchStoreClient(store.url, logger);
  const context = { ...parts, store: storeClient, partner };
  const ids = Array.from({ length: n }, (_, i) => String(20_000_000 + i));
  for (const id of ids) await store.createOrder({ id }, { sendWebhook: false });
  const workers = startWorkers(context, { connection: redis });
  const q = parts.queues;
  const all = Object.values(q) as Queue[];

  // As the webhook's general path and reconciliation take an order: noted on its timeline.
  for (const id of ids) {
    await parts.acceptOrderEvent({ orderId: id, source: 'orders/paid', cancelled: false });
  }
  await until('registration', async () => {
    const done = await q.createShipment.getJobCounts('completed', 'failed');
    return done.completed! + done.failed! >= n && (await idle(all));
  });
  const failed = await q.createShipment.getJobCounts('failed');
  if (failed.failed) throw new Error(`${failed.failed} registrations failed`);
  if (!(await q.createShipment.getJob(orderJobId(ids[0]!)))) throw new Error('no create job kept');

  for (const status of ['shipped', 'delivered'] as const) {
    for (const id of ids) sandbox.advance(id, status);
    await runSyncCycle({ ...context, logger }, `bench-${status}`);
    await until(`the ${status} writes`, () => idle(all));
  }
  await Promise.all(workers.map((w) => w.close()));

  const groups = await weigh(redis, prefix);
  await parts.close();
  await dropKeys(redis, prefix);
  await redis.quit();
  await Promise.all([sandbox.close(), store.close()]);
  return groups;
}

/** Part 2: a quiet sync cycle over `m` followed shipments, run in a process of its own. */
async function syncAtScale(m: number) {
  const redis = new Redis(local.url, { maxRetriesPerRequest: null });
  const prefix = `bench-footprint-${randomUUID().slice(0, 8)}`;
  const sandbox = await startBenchSandbox();
  const parts = buildSharedParts({ redis, prefix, settings, logger });
  const { partner } = benchPartnerSide(sandbox.url, redis, prefix, logger);
  const references = Array.from({ length: m }, (_, i) => String(30_000_000 + i));
  // Created over the sync's 60-day window, none final: all in the open set, all listed.
  sandbox.seedShipments({
    references,
    createdFrom: new Date(Date.now() - 55 * 24 * 3600_000),
    createdTo: new Date(Date.now() - 60_000),
  });
  const before = await usedMemory(redis);
  await followListedShipments({ partner, tracking: parts.tracking });
  const seeded = await usedMemory(redis);

  const result = START_ONLY ? undefined : await syncProcess(prefix, sandbox.url);
  buildDist();
  const deployed: ConnectorMemory[] = [];
  const oneThread: ConnectorMemory[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    for (const [runs, args] of [
      [deployed, []],
      [oneThread, ['--one-thread']],
    ] as const) {
      runs.push(await connectorThroughSyncCycle(redis, prefix, sandbox.url, [...args]));
      // The next start must run a cycle at once again: as on a first start, with no schedule yet.
      for (const scheduler of await parts.queues.syncShipments.getJobSchedulers()) {
        await parts.queues.syncShipments.removeJobScheduler(scheduler.key);
      }
    }
  }

  await parts.close();
  await dropKeys(redis, prefix);
  await redis.quit();
  await sandbox.close();
  return { ...result, deployed, oneThread, redisBytesPerShipment: (seeded - before) / m };
}

/** The cycle alone, in a process of its own (bench/sync-process.ts). */
async function syncProcess(prefix: string, partnerUrl: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./sync-process.ts', import.meta.url))],
    {
      env: {
        ...process.env,
        BENCH_REDIS_URL: local.url,
        BENCH_PREFIX: prefix,
        BENCH_PARTNER_URL: partnerUrl,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the sync process exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as {
    rssStartMb: number;
    rssPeakMb: number;
    heapPeakMb: number;
    cycleSeconds: number;
    listRequests: number;
  };
}

/** dist/ as `npm run build` makes it, which `connector start` runs. */
function buildDist(): void {
  const tsc = fileURLToPath(import.meta.resolve('typescript/bin/tsc'));
  const built = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('could not build dist/ (npm run build)');
}

interface ConnectorMemory {
  rssPeakMb: number;
  rssAfterMb: number;
  untilCycleDoneSeconds: number;
}

/**
 * `connector start` from dist/ (built by `buildDist`), as deployed, over the seeded state:
 * waits for its first scheduled sync cycle to finish, then reads the process's peak RSS (VmHWM)
 * and current RSS from /proc.
 */
async function connectorThroughSyncCycle(
  redis: Redis,
  prefix: string,
  partnerUrl: string,
  args: string[] = [],
): Promise<ConnectorMemory> {
  const store = await startFakeStore({
    shop: DEMO_SHOP,
    accessToken: DEMO_STORE_TOKEN,
    webhookSecret: DEMO_WEBHOOK_SECRET,
  });
  const lastCycleKey = `${prefix}:sync:last-cycle-started`;
  const before = await redis.get(lastCycleKey);
  const child = spawn(process.execPath, ['dist/src/cli/main.js', 'start', ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      ...demoEnv({
        redisUrl: local.url,
        prefix,
        port: await freePort('127.0.0.1'),
        partnerUrl,
        partnerToken: SANDBOX_TOKEN,
        storeUrl: store.url,
        // Bull Board mounted, as in production.
        adminPassword: randomUUID(),
      }),
      LOG_LEVEL: 'error',
      LOG_FORMAT: 'json',
      PARTNER_RATE_LIMIT: '1000000',
      // The first cycle runs at start; no second one while it is measured.
      SYNC_INTERVAL_MS: '3600000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const started = performance.now();
  try {
    while ((await redis.get(lastCycleKey)) === before) {
      if (child.exitCode !== null) throw new Error(`connector start exited (${child.exitCode})`);
      if (performance.now() - started > 300_000) throw new Error('no sync cycle in 5 minutes');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]);
    return {
      rssPeakMb: Math.round(kb('VmHWM') / 1024),
      rssAfterMb: Math.round(kb('VmRSS') / 1024),
      untilCycleDoneSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    };
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    await store.close();
  }
}

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1]);
}

const kb = (bytes: number) => (bytes / 1024).toFixed(2);

/** Part 1's table: bytes per order, and what that makes at a steady rate of orders. */
function reportPerOrder(groups: Awaited<ReturnType<typeof perOrder>>): void {
  const DAY_S = 24 * 3600;
  const recordDays = settings.records.retentionDays;
  const shipmentDays = 2 * settings.sync.lookbackDays;
  /** Days a completed job of each queue is kept (its options' removeOnComplete.age). */
  const jobDays = new Map<string, number>();
  for (const job of Object.values(JOB_CATALOG) as AnyJobDefinition[]) {
    const keep = job.options(settings as never).removeOnComplete;
    if (typeof keep === 'object' && 'age' in keep && keep.age) {
      jobDays.set(job.queue, keep.age / DAY_S);
    }
  }
  /** How long a key of the group lives, in days; undefined: per queue or per token, not per order. */
  function lifeDays(group: string): number | undefined {
    if (group === 'order record' || group === 'orders:registered') return recordDays;
    if (group.startsWith('order notes')) return 7;
    if (group === 'order timeline') return TIMELINE_DAYS;
    if (group.startsWith('shipment') || group.startsWith('sync:open')) return shipmentDays;
    const queue = /^(\S+) (job|job logs|completed index)$/.exec(group)?.[1];
    return queue ? jobDays.get(queue) : undefined;
  }

  const rows = [...groups.entries()].sort((a, b) => b[1].bytes - a[1].bytes);
  let allBytes = 0;
  let allKeys = 0;
  let fixedBytes = 0;
  let steadyBytes = 0;
  console.log(`1. ${ORDERS} orders registered, marked, shipped, fulfilled and delivered:\n`);
  console.log('| Keys | Count | Bytes per order | Kept (days) |');
  console.log('|---|---:|---:|---:|');
  for (const [group, { keys, bytes }] of rows) {
    const days = lifeDays(group);
    allBytes += bytes;
    allKeys += keys;
    if (days === undefined) fixedBytes += bytes;
    // At a steady rate of orders a key kept d days is there for d of the shipment's days.
    else steadyBytes += (bytes * days) / shipmentDays;
    if (bytes / ORDERS >= 1) {
      console.log(
        `| ${group} | ${keys} | ${(bytes / ORDERS).toFixed(0)} | ${days ?? 'per queue or token'} |`,
      );
    }
  }
  console.log(
    `\nRight after the flow (every job still kept): ${allKeys} keys, ${(allKeys / ORDERS).toFixed(1)} per order, ` +
      `${kb((allBytes - fixedBytes) / ORDERS)} KB per order, plus ${kb(fixedBytes)} KB per queue and token ` +
      '(event streams capped at 10,000 entries, metrics, markers).',
  );
  console.log(
    `Steady state, orders arriving at a steady rate: ${kb(steadyBytes / ORDERS)} KB per tracked order ` +
      `(a shipment record is kept ${shipmentDays} days, an order record ${recordDays}, completed jobs ` +
      `${[...new Set(jobDays.values())].join(' or ')} days).\n`,
  );
  const timeline = groups.get('order timeline');
  console.log(
    `Order timeline (what connector status shows beyond BullMQ and the records): ${
      timeline ? (timeline.bytes / timeline.keys).toFixed(0) : 0
    } bytes per order for the whole flow above (kept ${TIMELINE_DAYS} days after its last entry).\n`,
  );
}

console.log(`Redis footprint, ${new Date().toISOString().slice(0, 10)}`);
console.log(`Machine: ${os.cpus()[0]?.model} × ${os.cpus().length}, Node ${process.version}`);
const redisInfo = await new Redis(local.url).info('server');
console.log(`Redis ${/redis_version:(\S+)/.exec(redisInfo)?.[1]}\n`);

if (!START_ONLY) reportPerOrder(await perOrder(ORDERS));
if (ORDERS_ONLY) process.exit(0);

const scale = await syncAtScale(TRACKED);
console.log(`2. A quiet sync cycle over ${TRACKED} followed shipments:\n`);
if (scale.rssPeakMb !== undefined) {
  console.log(
    `   process RSS before the cycle ${scale.rssStartMb} MB, peak during it ${scale.rssPeakMb} MB (heap peak ${scale.heapPeakMb} MB)`,
  );
  console.log(`   cycle ${scale.cycleSeconds} s, ${scale.listRequests} list requests`);
}
const runs = (memory: ConnectorMemory[]) =>
  `peak RSS ${memory.map((m) => m.rssPeakMb).join(', ')} MB, ${memory.map((m) => m.rssAfterMb).join(', ')} MB after (${memory.map((m) => m.untilCycleDoneSeconds).join(', ')} s from start)`;
console.log(
  `   connector start (dist/, workers thread, intake and Bull Board up) through its first cycle: ${runs(scale.deployed)}`,
);
console.log(`   connector start --one-thread, the same: ${runs(scale.oneThread)}`);
console.log(
  `   Redis: ${scale.redisBytesPerShipment.toFixed(0)} bytes per followed shipment (INFO used_memory delta)`,
);
process.exit(0);
