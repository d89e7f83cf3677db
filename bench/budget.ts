/**
 * Drains a backlog of create and sync jobs against the local partner sandbox, in compressed time,
 * with one and with three worker processes sharing one budget through Redis, and reports how well
 * the budget was used and whether the provider's limit or a Retry-After was ever broken.
 *
 *   npm run bench            (Redis on REDIS_URL, default redis://127.0.0.1:6379, or a private
 *                             redis-server for the run when none answers there)
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { auditRequests, startPartnerSandbox } from '../src/sandbox/partner/index.js';
import { dropKeys, startLocalRedis } from './rig.js';
import { SANDBOX_TOKEN } from './settings.js';

const local = await startLocalRedis();
const REDIS_URL = local.url;
const LIMIT = 30;
const WINDOW_MS = 5_000;
const CREATES = 240;
const SYNCS = 60;

interface RunResult {
  processes: number;
  requests: number;
  seconds: number;
  utilisation: number;
  rateLimited: number;
  sentEarly: number;
  maxInWindow: number;
}

async function run(processes: number): Promise<RunResult> {
  const sandbox = await startPartnerSandbox({ rateLimit: LIMIT, rateWindowMs: WINDOW_MS });
  const prefix = `bench-${randomUUID().slice(0, 8)}`;
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const create = new Queue('create-shipment', { connection: redis, prefix });
  const sync = new Queue('sync-status', { connection: redis, prefix });

  const children = await Promise.all(
    Array.from({ length: processes }, () => {
      const child = fork(new URL('./worker-process.ts', import.meta.url), {
        execArgv: ['--import', 'tsx'],
        env: {
          ...process.env,
          BENCH_PREFIX: prefix,
          BENCH_TOKEN: SANDBOX_TOKEN,
          BENCH_REDIS_URL: REDIS_URL,
          BENCH_PARTNER_URL: sandbox.url,
          BENCH_LIMIT: String(LIMIT),
          BENCH_WINDOW_MS: String(WINDOW_MS),
        },
      });
      return new Promise<typeof child>((resolve) => child.once('message', () => resolve(child)));
    }),
  );

  // The backlog arrives at once, after every process is up: the budget alone sets the pace.
  await create.addBulk(
    Array.from({ length: CREATES }, (_, i) => ({
      name: 'create',
      data: { reference: `bench-${i}` },
    })),
  );
  await sync.addBulk(Array.from({ length: SYNCS }, () => ({ name: 'sync', data: {} })));
  for (;;) {
    const [c, s] = await Promise.all([
      create.getJobCounts('completed'),
      sync.getJobCounts('completed'),
    ]);
    if (c.completed === CREATES && s.completed === SYNCS) break;
    await new Promise((r) => setTimeout(r, 100));
  }

  await Promise.all(
    children.map((child) => new Promise((resolve) => child.once('exit', resolve).kill('SIGTERM'))),
  );
  const audit = auditRequests(sandbox.requests, { windowMs: WINDOW_MS, token: SANDBOX_TOKEN });
  const span = (audit.lastAt ?? 0) - (audit.firstAt ?? 0);
  // A run spanning `span` ms can hold at most LIMIT requests per window, plus the first window.
  const capacity = (LIMIT * (span + WINDOW_MS)) / WINDOW_MS;

  await Promise.all([create.obliterate({ force: true }), sync.obliterate({ force: true })]);
  await Promise.all([create.close(), sync.close()]);
  await dropKeys(redis, prefix);
  await redis.quit();
  await sandbox.close();

  return {
    processes,
    requests: audit.admitted,
    seconds: span / 1000,
    utilisation: audit.admitted / capacity,
    rateLimited: audit.rateLimited,
    sentEarly: audit.sentEarly,
    maxInWindow: audit.maxInWindow,
  };
}

const results: RunResult[] = [];
for (const processes of [1, 3]) results.push(await run(processes));
await local.stop();

console.log(
  `Partner budget benchmark: limit ${LIMIT} per ${WINDOW_MS / 1000} s, backlog ${CREATES} creates + ${SYNCS} syncs`,
);
console.log(
  `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
);
console.table(
  results.map((r) => ({
    processes: r.processes,
    requests: r.requests,
    'span (s)': r.seconds.toFixed(1),
    utilisation: `${(r.utilisation * 100).toFixed(1)}%`,
    '429s': r.rateLimited,
    'sent early after 429': r.sentEarly,
    [`max in any ${WINDOW_MS / 1000} s window`]: `${r.maxInWindow} / ${LIMIT}`,
  })),
);
const ok = results.every(
  (r) =>
    r.utilisation >= 0.95 && r.rateLimited === 0 && r.sentEarly === 0 && r.maxInWindow <= LIMIT,
);
console.log(
  ok ? 'PASS: ≥95% utilisation, no 429, nothing early, no window over the limit' : 'FAIL',
);
process.exitCode = ok ? 0 : 1;
