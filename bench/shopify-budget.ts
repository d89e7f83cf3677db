/**
 * Shopify budget benchmark: 1 and 3 connector processes (child processes) hammer the local fake
 * store with its cost bucket on (a standard plan: 1,000 points, 100 a second), first each
 * process on its own (as before the shared model: it learns of the bucket only from THROTTLED
 * answers), then all through the bucket model they share in Redis, which leaves a reserve share
 * to the merchant's other apps. Measured after a warm-up, from what the fake store saw.
 *
 *   npm run bench   (Redis on REDIS_URL, or a private redis-server for the run)
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Redis } from 'ioredis';
import type { FakeStore } from '../src/sandbox/store/index.js';
import { dropKeys, startBenchStore, startLocalRedis } from './rig.js';

const local = await startLocalRedis();
const REDIS_URL = local.url;
const BUCKET = { maximumAvailable: 1000, restoreRate: 100 };
const RESERVE_SHARE = 0.2;
const WARM_UP_MS = 10_000;
const MEASURE_MS = 30_000;

interface RunResult {
  processes: number;
  shared: boolean;
  requests: number;
  throttled: number;
  gaveUp: number;
  pointsPerSecond: number;
  lowest: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function snapshot(store: FakeStore) {
  const bucket = store.costBucket()!;
  return {
    at: Date.now(),
    used: bucket.used,
    throttled: bucket.throttled,
    requests: store.requests.filter((r) => r.outcome === 'ok').length,
  };
}

async function run(processes: number, shared: boolean): Promise<RunResult> {
  // The bundled fixture orders: every process reads the first one.
  const store = await startBenchStore({ costBucket: BUCKET });
  const prefix = `bench-shopify-${randomUUID().slice(0, 8)}`;
  const orderId = store.orders()[0]!.id;
  const children = await Promise.all(
    Array.from({ length: processes }, () => {
      const child = fork(new URL('./shopify-process.ts', import.meta.url), {
        execArgv: ['--import', 'tsx'],
        env: {
          ...process.env,
          BENCH_STORE_URL: store.url,
          BENCH_ORDER_ID: orderId,
          BENCH_REDIS_URL: REDIS_URL,
          BENCH_PREFIX: prefix,
          BENCH_SHARED: shared ? '1' : '0',
          BENCH_RESERVE_SHARE: String(RESERVE_SHARE),
        },
      });
      return new Promise<ChildProcess>((resolve) => child.once('message', () => resolve(child)));
    }),
  );
  await sleep(WARM_UP_MS);
  const start = snapshot(store);
  await sleep(MEASURE_MS);
  const end = snapshot(store);
  const lowest = store.costBucket()!.lowest;

  const reports = await Promise.all(
    children.map(
      (child) =>
        new Promise<{ gaveUp: number }>((resolve) => {
          child.once('message', (report) => resolve(report as { gaveUp: number }));
          child.send('stop');
        }),
    ),
  );
  await store.close();
  const redis = new Redis(REDIS_URL);
  await dropKeys(redis, prefix);
  await redis.quit();

  return {
    processes,
    shared,
    requests: end.requests - start.requests,
    throttled: end.throttled - start.throttled,
    gaveUp: reports.reduce((sum, r) => sum + r.gaveUp, 0),
    pointsPerSecond: ((end.used - start.used) * 1000) / (end.at - start.at),
    lowest,
  };
}

const results: RunResult[] = [];
for (const shared of [false, true]) {
  for (const processes of [1, 3]) results.push(await run(processes, shared));
}
await local.stop();

const share = BUCKET.restoreRate * (1 - RESERVE_SHARE);
console.log(
  `Shopify budget benchmark: bucket ${BUCKET.maximumAvailable} points, ${BUCKET.restoreRate}/s; reserve ${RESERVE_SHARE} (connector's share ${share}/s); ${MEASURE_MS / 1000} s measured after ${WARM_UP_MS / 1000} s`,
);
console.log(
  `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
);
console.table(
  results.map((r) => ({
    model: r.shared ? 'shared (Redis)' : 'per process',
    processes: r.processes,
    'requests answered': r.requests,
    THROTTLED: r.throttled,
    'calls given up': r.gaveUp,
    'points/s': r.pointsPerSecond.toFixed(1),
    [`of ${share}/s`]: `${((r.pointsPerSecond / share) * 100).toFixed(0)}%`,
    'lowest level': Math.floor(r.lowest),
  })),
);
const ok = results
  .filter((r) => r.shared)
  .every(
    (r) =>
      r.throttled === 0 &&
      // A window of 30 s holds a dozen requests of up to 605 points: allow one on either edge.
      r.pointsPerSecond <= share * 1.15 &&
      r.lowest >= BUCKET.maximumAvailable * RESERVE_SHARE - 5,
  );
if (!ok) {
  console.error('The shared model let Shopify throttle, or used more than its share');
  process.exit(1);
}
