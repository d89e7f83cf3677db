import { Queue, Worker } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { closeWorkers } from '../../src/queue/close-workers.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';

const redis = testRedis();
const prefix = uniquePrefix('close');
const logger = createLogger({ level: 'silent' });
const queue = new Queue('q', { connection: redis, prefix });

afterEach(async () => {
  await queue.obliterate({ force: true });
});

async function workerWithActiveJob(jobMs: number) {
  let started!: () => void;
  const active = new Promise<void>((resolve) => {
    started = resolve;
  });
  const worker = new Worker(
    'q',
    async () => {
      started();
      await new Promise((r) => setTimeout(r, jobMs));
    },
    { connection: testRedis(), prefix },
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
    const worker = await workerWithActiveJob(60_000);
    expect(await closeWorkers([worker], 100, logger)).toBe('forced');
    expect(await queue.getJobCounts('active', 'completed')).toEqual({ active: 1, completed: 0 });
  });
});

process.on('beforeExit', () => {
  void dropKeys(redis, prefix).then(() => redis.quit());
});
