import { Queue, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../../config/index.js';
import type { Logger } from '../log.js';
import { BACKOFF_TYPE, retryDelayMs } from './backoff.js';
import { QUEUES } from './names.js';

const DAY_S = 24 * 3600;

/** The connector's queues, sharing one connection and key prefix. */
export interface Queues {
  createShipment: Queue;
  updateStore: Queue;
  reconcileOrders: Queue;
  syncStatus: Queue;
}

export function createQueues(
  connection: Redis,
  prefix: string,
  createJob: Config['createJob'],
  logger?: Logger,
): Queues {
  const make = (name: string, defaultJobOptions: Queue['defaultJobOptions']) => {
    const queue = new Queue(name, { connection, prefix, defaultJobOptions });
    // Without a listener, every failed reconnect while Redis is down prints a raw stack trace.
    queue.on('error', (err) => logger?.warn({ err, queue: name }, 'queue connection error'));
    return queue;
  };
  return {
    createShipment: make(QUEUES.createShipment, {
      attempts: createJob.attempts,
      backoff: { type: BACKOFF_TYPE },
      // Completed jobs stay a week so Bull Board shows recent work; failed ones a month, to replay.
      removeOnComplete: { age: 7 * DAY_S, count: 50_000 },
      removeOnFail: { age: 30 * DAY_S },
    }),
    updateStore: make(QUEUES.updateStore, {
      attempts: 10,
      backoff: { type: 'exponential', delay: 5_000, jitter: 0.2 },
      removeOnComplete: { age: 7 * DAY_S, count: 50_000 },
      removeOnFail: { age: 30 * DAY_S },
    }),
    reconcileOrders: make(QUEUES.reconcileOrders, {
      attempts: 3,
      backoff: { type: 'exponential', delay: 10_000 },
      removeOnComplete: { count: 200 },
      removeOnFail: { count: 200 },
    }),
    syncStatus: make(QUEUES.syncStatus, {
      attempts: 3,
      backoff: { type: 'exponential', delay: 10_000 },
      removeOnComplete: { count: 200 },
      removeOnFail: { count: 200 },
    }),
  };
}

export function allQueues(queues: Queues): Queue[] {
  return [queues.createShipment, queues.updateStore, queues.reconcileOrders, queues.syncStatus];
}

/** Queues whose jobs call the partner API, and so stop together when the token is refused. */
export function partnerQueues(queues: Queues): Queue[] {
  return [queues.createShipment, queues.syncStatus];
}

/** Options every worker shares. */
export function workerOptions(
  connection: Redis,
  prefix: string,
  createJob: Config['createJob'],
  concurrency: number,
): WorkerOptions {
  return {
    connection,
    prefix,
    concurrency,
    // The partner budget, not BullMQ, decides the pace; this limiter only makes workers honour
    // `queue.rateLimit()` (BullMQ ignores the limiter key on workers without one).
    limiter: { max: 1_000_000, duration: 1_000 },
    settings: {
      backoffStrategy: (attemptsMade: number) => retryDelayMs(attemptsMade, createJob.backoff),
    },
  };
}
