import { type Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { JobContext } from '../../jobs/context.js';
import { defineJob } from '../../jobs/job-definition.js';
import { processorFor, unseenFailureRecorder } from '../../jobs/processor.js';
import { createLogger } from '../../src/log.js';
import { Counters } from '../../src/metrics/counters.js';
import { PartnerAuthGuard } from '../../src/partner/auth-guard.js';
import { FinalJobError } from '../../src/queue/failure-policy.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';
import { waitUntil } from '../helpers/shipment-stack.js';

let redis: Redis;
let prefix: string;
let queue: Queue;
const workers: Worker[] = [];

beforeEach(() => {
  redis = testRedis();
  prefix = uniquePrefix('processor');
  queue = new Queue('probe', { connection: redis, prefix });
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close(true)));
  await queue.close();
  await dropKeys(redis, prefix);
  await redis.quit();
});

/**
 * A job whose work throws what `fails` says, run by a real worker wired as src/compose/workers.ts
 * wires the service's: the processor, and the recorder on the `failed` event. Returns the
 * reasons its `onGiveUp` was called with, and the recorder runs, to await.
 */
function runFailing(fails: (attempt: number) => Error) {
  const gaveUp: string[] = [];
  const recorded: Promise<void>[] = [];
  const probe = defineJob({
    queue: 'probe',
    payload: z.object({ n: z.number() }),
    jobId: ({ n }) => `probe-${n}`,
    options: () => ({ attempts: 2 }),
    concurrency: 1,
    callsPartner: false,
    process: () => async (_payload, job: Job) => {
      throw fails(job.attemptsMade + 1);
    },
    async onGiveUp(_context, _payload, reason) {
      gaveUp.push(reason);
    },
  });
  const logger = createLogger({ level: 'silent' });
  const context = {
    prefix,
    redis,
    logger,
    counters: new Counters(redis, prefix),
    authGuard: new PartnerAuthGuard(redis, prefix, [], logger),
    queueOf: () => queue,
  } as unknown as JobContext;
  const worker = new Worker('probe', processorFor(probe, context), {
    connection: redis,
    prefix,
    settings: { backoffStrategy: () => 0 },
  });
  worker.on('error', () => {});
  const record = unseenFailureRecorder(probe, context);
  worker.on('failed', (job, error) => {
    if (job) recorded.push(record(job, error));
  });
  workers.push(worker);
  return { gaveUp, recorded, probe };
}

describe('unseenFailureRecorder', () => {
  it('leaves a refusal to the policy, which has recorded it', async () => {
    const { gaveUp, recorded } = runFailing(() => new FinalJobError('Order cannot ship.'));
    await queue.add('probe', { n: 1 }, { jobId: 'probe-1', attempts: 2 });

    await waitUntil(() => recorded.length === 1, { what: 'the failed event' });
    await Promise.all(recorded);
    expect(await queue.getJobState('probe-1')).toBe('failed');
    expect(gaveUp).toEqual([]);
  });

  it('leaves a retried failure alone, and the last attempt to the policy: one give-up', async () => {
    const { gaveUp, recorded } = runFailing(() => new Error('Upstream broke.'));
    await queue.add('probe', { n: 2 }, { jobId: 'probe-2', attempts: 2 });

    await waitUntil(() => recorded.length === 2, { what: 'both failed events' });
    await Promise.all(recorded);
    expect(await queue.getJobState('probe-2')).toBe('failed');
    expect(gaveUp).toEqual([
      'Gave up after 2 attempts: Upstream broke. Replay the job once the cause is fixed.',
    ]);
  });

  it('leaves a malformed payload to the processor, which refused it', async () => {
    const { gaveUp, recorded } = runFailing(() => new Error('never runs'));
    await queue.add('probe', { n: 'three' }, { jobId: 'probe-3', attempts: 2 });

    await waitUntil(() => recorded.length === 1, { what: 'the failed event' });
    await Promise.all(recorded);
    expect(gaveUp).toEqual([]);
    expect((await queue.getJobLogs('probe-3')).logs).toEqual([]);
  });
});
