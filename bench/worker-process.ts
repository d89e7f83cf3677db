/**
 * One worker process of the budget benchmark: its own Redis connection, budget, partner client
 * and a worker on each of the create and sync queues, as one `connector start` process has.
 */
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { PartnerBudget } from '../src/partner/budget.js';
import { PartnerClient } from '../src/partner/client.js';
import { runPartnerStep } from '../src/queue/failure-policy.js';
import { benchRequest } from './shipment.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const prefix = env('BENCH_PREFIX');
const token = env('BENCH_TOKEN');
const redis = new Redis(env('BENCH_REDIS_URL'), { maxRetriesPerRequest: null });
const budget = new PartnerBudget(redis, {
  token,
  limit: Number(env('BENCH_LIMIT')),
  windowMs: Number(env('BENCH_WINDOW_MS')),
  syncReserve: 0.2,
  keyPrefix: `${prefix}:budget`,
});
const client = new PartnerClient({ baseUrl: env('BENCH_PARTNER_URL'), token, gate: budget });
const queues = {
  create: new Queue('create-shipment', { connection: redis, prefix }),
  sync: new Queue('sync-status', { connection: redis, prefix }),
};
const options = {
  connection: redis,
  prefix,
  concurrency: 4,
  limiter: { max: 1_000_000, duration: 1_000 },
};
const workers = [
  new Worker(
    'create-shipment',
    (job: Job) =>
      runPartnerStep(queues.create, () => client.createShipment(benchRequest(job.data.reference))),
    options,
  ),
  new Worker(
    'sync-status',
    () => runPartnerStep(queues.sync, () => client.listShipments({ perPage: 1 })),
    options,
  ),
];

process.once('SIGTERM', async () => {
  await Promise.all(workers.map((w) => w.close()));
  await Promise.all([queues.create.close(), queues.sync.close()]);
  await redis.quit();
  process.exit(0);
});
process.send?.('ready');
