import { setTimeout as sleep } from 'node:timers/promises';
import { Queue, Worker } from 'bullmq';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { closeWorkers } from '../../src/queue/close-workers.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';
import { waitUntil } from '../helpers/shipment-stack.js';

const redis = testRedis();
const prefix = uniquePrefix('close');
const logger = createLogger({ level: 'silent' });
const queue = new Queue('q', { connection: redis, prefix });

afterEach(async () => {
  await queue.obliterate({ force: true });
});

/** Ends the jobs left running in this process by a forced close, once a test is over. */
const abandoned = new AbortController();
afterAll(() => abandoned.abort());

async function workerWithActiveJob(jobMs: number, lockDuration?: number) {
  let started!: () => void;
  const active = new Promise<void>((resolve) => {
    started = resolve;
  });
  const worker = new Worker(
    'q',
    async () => {
      started();
      await sleep(jobMs, undefined, { signal: abandoned.signal }).catch(() => {});
    },
    // A stalled check also holds off the next one for its interval: keep both short here.
    {
      connection: testRedis(),
      prefix,
      ...(lockDuration ? { lockDuration, stalledInterval: 100 } : {}),
    },
  );
  await queue.add('job', {});
  await active;
  return worker;
}

describe('closeWorkers', () => {
  it('lets an active job finish within the grace period', async () => {
    const worker = await workerWithActiveJob(100);
    expect(await closeWorkers([worker], 5_000, logger)).toBe('finished');
    expect(await queue.getJobCounts('completed')).toEqual({ completed: 1 });
    // Closed, not just paused: a paused worker keeps its connections and the process alive.
    expect(worker.closing).toBeTruthy();
    expect(worker.isRunning()).toBe(false);
  });

  it('stops the workers once the grace period is over, leaving the job to run again', async () => {
    // A short lock, so the job is seen as stalled soon after its worker is gone.
    const worker = await workerWithActiveJob(60_000, 500);
    expect(await closeWorkers([worker], 100, logger)).toBe('forced');
    expect(await queue.getJobCounts('active', 'completed')).toEqual({ active: 1, completed: 0 });

    // Another process's worker finds the stalled job and runs it to the end.
    const next = new Worker('q', async () => 'ran again', {
      connection: testRedis(),
      prefix,
      stalledInterval: 100,
    });
    try {
      const [job] = await waitUntil(
        async () => {
          const done = await queue.getJobs(['completed']);
          return done.length > 0 ? done : undefined;
        },
        { what: 'the job to run again', timeoutMs: 15_000 },
      );
      expect(job?.returnvalue).toBe('ran again');
    } finally {
      await next.close();
    }
  });
});

process.on('beforeExit', () => {
  void dropKeys(redis, prefix).then(() => redis.quit());
});
