import { UnrecoverableError, Worker } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markOrderJob } from '../../../jobs/mark-order/job.js';
import { intakeOnTestRedis, waitFor } from '../../helpers/intake.js';
import { testRedis } from '../../helpers/redis.js';

const ORDER_ID = '5551234';

let intake: Awaited<ReturnType<typeof intakeOnTestRedis>>;
const workers: Worker[] = [];

beforeEach(async () => {
  intake = await intakeOnTestRedis('mark-enqueue');
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close(true)));
  await intake.close();
});

/** Queues the order's registration mark and lets a worker fail it for good; its job id. */
async function failedRegistrationMark(): Promise<string> {
  const worker = new Worker(
    markOrderJob.queue,
    async (): Promise<unknown> => {
      throw new UnrecoverableError('Shopify refused metafieldsSet');
    },
    { connection: testRedis(), prefix: intake.prefix },
  );
  worker.on('error', () => {});
  workers.push(worker);
  await intake.markOrder(ORDER_ID, 'registered');
  const jobId = `registered-${ORDER_ID}`;
  await waitFor(async () => (await intake.queues.markOrder.getJobState(jobId)) === 'failed', {
    what: 'the mark job to fail',
  });
  await worker.close();
  return jobId;
}

describe('enqueueMarkOrder', () => {
  it('retries a mark job that failed for good instead of being swallowed by it', async () => {
    const jobId = await failedRegistrationMark();

    await intake.markOrder(ORDER_ID, 'registered');

    expect(await intake.queues.markOrder.getJobState(jobId)).toBe('waiting');
  });

  it('retries a failed mark afresh: the schedule’s count and a noted refusal are dropped', async () => {
    const jobId = await failedRegistrationMark();
    // What the schedule and the failure handler leave on a mark they gave up on.
    const failed = await intake.queues.markOrder.getJob(jobId);
    // …and what the registration saw of the order then, old by now.
    await failed?.updateData({
      ...failed.data,
      scheduledRetries: 10,
      refusedByShopify: true,
      seen: { tags: [], orderNumber: null, error: false },
    });

    await intake.markOrder(ORDER_ID, 'registered');

    const retried = await intake.queues.markOrder.getJob(jobId);
    expect(retried?.data).toEqual({ orderId: ORDER_ID, kind: 'registered' });
    expect(await retried?.getState()).toBe('waiting');
  });
});
