import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createShipmentJob } from '../../../jobs/create-shipment/job.js';
import { markOrderJob } from '../../../jobs/mark-order/job.js';
import { allJobs, intakeOnTestRedis, waitFor } from '../../helpers/intake.js';
import { testRedis } from '../../helpers/redis.js';

const ORDER_ID = '5551234';
const JOB_ID = `order-${ORDER_ID}`;

let intake: Awaited<ReturnType<typeof intakeOnTestRedis>>;
const workers: Worker[] = [];

beforeEach(async () => {
  intake = await intakeOnTestRedis('enqueue');
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close(true)));
  await intake.close();
});

/** A real worker on the create-shipment queue running `process` instead of the registration. */
function startWorker(process: (job: Job) => Promise<unknown>): Worker {
  const worker = new Worker(createShipmentJob.queue, process, {
    connection: testRedis(),
    prefix: intake.prefix,
    // The queue's capped-exponential backoff, without the wait.
    settings: { backoffStrategy: () => 0 },
  });
  worker.on('error', () => {});
  workers.push(worker);
  return worker;
}

async function stateOf(jobId: string) {
  return (await intake.queues.createShipment.getJob(jobId))?.getState();
}

describe('enqueueOrder', () => {
  it('queues one job per order and leaves a waiting job alone', async () => {
    expect(await intake.enqueueOrder(ORDER_ID, 'orders/create')).toBe('queued');
    const before = await intake.queues.createShipment.getJob(JOB_ID);

    expect(await intake.enqueueOrder(ORDER_ID, 'orders/paid')).toBe('already_queued');

    const jobs = await allJobs(intake.queues.createShipment);
    expect(jobs.map((j) => j.id)).toEqual([JOB_ID]);
    expect(jobs[0]!.timestamp).toBe(before!.timestamp);
    expect(jobs[0]!.data).toEqual({ orderId: ORDER_ID, source: 'orders/create' });
    expect(await stateOf(JOB_ID)).toBe('waiting');
  });

  it('replaces a skipped job once when several events for the order arrive at the same moment', async () => {
    const worker = startWorker(async () => ({ outcome: 'skipped', code: 'not_paid' }));
    await intake.enqueueOrder(ORDER_ID, 'orders/create');
    await waitFor(async () => (await stateOf(JOB_ID)) === 'completed', { what: 'completion' });
    await worker.close();

    // Each sees the completed job and races to replace it; none may fail, and the completed job
    // must not survive (BullMQ alone would ignore an add for an id it still holds).
    const results = await Promise.all(
      ['orders/paid', 'orders/updated', 'reconcile', 'orders/updated'].map((source) =>
        intake.enqueueOrder(ORDER_ID, source),
      ),
    );

    expect(results.every((r) => r === 'requeued' || r === 'already_queued')).toBe(true);
    const jobs = await allJobs(intake.queues.createShipment);
    expect(jobs.map((j) => j.id)).toEqual([JOB_ID]);
    expect(await jobs[0]!.getState()).toBe('waiting');
    expect(jobs[0]!.returnvalue).toBeNull();
  });

  it('leaves an active job alone', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const worker = startWorker(async () => {
      await released;
      return { outcome: 'registered' };
    });
    await intake.enqueueOrder(ORDER_ID, 'orders/create');
    await waitFor(async () => (await stateOf(JOB_ID)) === 'active', { what: 'the job to start' });

    expect(await intake.enqueueOrder(ORDER_ID, 'orders/paid')).toBe('already_queued');

    expect(await stateOf(JOB_ID)).toBe('active');
    const job = await intake.queues.createShipment.getJob(JOB_ID);
    expect(job!.data.source).toBe('orders/create');
    release();
    await waitFor(async () => (await stateOf(JOB_ID)) === 'completed', { what: 'completion' });
    await worker.close();
  });

  it('replaces a job that completed without a shipment (skipped) by a fresh one on a later event', async () => {
    const worker = startWorker(async () => ({ outcome: 'skipped', code: 'not_paid' }));
    await intake.enqueueOrder(ORDER_ID, 'orders/create');
    await waitFor(async () => (await stateOf(JOB_ID)) === 'completed', { what: 'completion' });
    await worker.close();
    const skipped = await intake.queues.createShipment.getJob(JOB_ID);

    expect(await intake.enqueueOrder(ORDER_ID, 'orders/paid')).toBe('requeued');

    const jobs = await allJobs(intake.queues.createShipment);
    expect(jobs.map((j) => j.id)).toEqual([JOB_ID]);
    const fresh = jobs[0]!;
    expect(await fresh.getState()).toBe('waiting');
    expect(fresh.data).toEqual({ orderId: ORDER_ID, source: 'orders/paid' });
    expect(fresh.returnvalue).toBeNull();
    expect(fresh.timestamp).toBeGreaterThanOrEqual(skipped!.timestamp);
  });

  it('retries a failed job (back to waiting) with a full set of attempts', async () => {
    // Fails on every attempt, as an order would during a long outage.
    let runs = 0;
    const failing = async () => {
      runs++;
      throw new Error('partner answered 503');
    };
    const worker = startWorker(failing);
    await intake.enqueueOrder(ORDER_ID, 'orders/create');
    await waitFor(async () => (await stateOf(JOB_ID)) === 'failed', {
      what: 'the job to fail for good',
    });
    await worker.close();
    expect(runs).toBe(3);

    expect(await intake.enqueueOrder(ORDER_ID, 'orders/updated')).toBe('requeued');

    const jobs = await allJobs(intake.queues.createShipment);
    expect(jobs.map((j) => j.id)).toEqual([JOB_ID]);
    expect(await jobs[0]!.getState()).toBe('waiting');
    expect(jobs[0]!.failedReason).toBeFalsy();
    // A fresh run: the create-shipment worker decides "last attempt?" from attemptsMade.
    expect(jobs[0]!.attemptsMade).toBe(0);

    // And it gets every attempt again, not just one.
    runs = 0;
    startWorker(failing);
    await waitFor(async () => (await stateOf(JOB_ID)) === 'failed', { what: 'the second failure' });
    expect(runs).toBe(3);
  });

  it('retries a job refused for good (UnrecoverableError) once the order changed', async () => {
    const worker = startWorker(async () => {
      throw new UnrecoverableError('Order has no postal code.');
    });
    await intake.enqueueOrder(ORDER_ID, 'orders/create');
    await waitFor(async () => (await stateOf(JOB_ID)) === 'failed', { what: 'the refusal' });
    await worker.close();

    expect(await intake.enqueueOrder(ORDER_ID, 'orders/updated')).toBe('requeued');

    expect(await stateOf(JOB_ID)).toBe('waiting');
  });

  it('retries a failed job once when several events for it arrive at the same moment', async () => {
    const worker = startWorker(async () => {
      throw new UnrecoverableError('Order has no postal code.');
    });
    await intake.enqueueOrder(ORDER_ID, 'orders/create');
    await waitFor(async () => (await stateOf(JOB_ID)) === 'failed', { what: 'the refusal' });
    await worker.close();

    const results = await Promise.all(
      ['orders/updated', 'reconcile', 'orders/paid'].map((source) =>
        intake.enqueueOrder(ORDER_ID, source),
      ),
    );

    expect(results.filter((r) => r === 'requeued')).toHaveLength(1);
    expect(results.filter((r) => r === 'already_queued')).toHaveLength(2);
    expect(await stateOf(JOB_ID)).toBe('waiting');
  });

  it('queues nothing for a registered order, whatever the state of its old job', async () => {
    await intake.records.markRegistered(ORDER_ID, {
      orderNumber: 'PS-1',
      status: 'created',
      createdAt: '2026-11-21T10:00:00+01:00',
    });

    expect(await intake.enqueueOrder(ORDER_ID, 'orders/updated')).toBe('already_registered');
    expect(await allJobs(intake.queues.createShipment)).toEqual([]);
  });
});

describe('an event for a registered order whose mark job failed for good', () => {
  it('retries the mark job, and queues no create job', async () => {
    const worker = new Worker(
      markOrderJob.queue,
      async (): Promise<unknown> => {
        throw new UnrecoverableError('Shopify refused tagsAdd');
      },
      { connection: testRedis(), prefix: intake.prefix },
    );
    worker.on('error', () => {});
    workers.push(worker);
    await intake.records.markRegistered(ORDER_ID, {
      orderNumber: 'PS-1',
      status: 'pending',
      createdAt: '2026-11-22T10:00:00+01:00',
    });
    await intake.markOrder(ORDER_ID, 'registered');
    const jobId = `registered-${ORDER_ID}`;
    await waitFor(async () => (await intake.queues.markOrder.getJobState(jobId)) === 'failed', {
      what: 'the mark job to fail',
    });
    await worker.close();

    expect(await intake.enqueueOrder(ORDER_ID, 'orders/updated')).toBe('already_registered');

    expect(await intake.queues.markOrder.getJobState(jobId)).toBe('waiting');
    expect(await intake.queues.createShipment.getJob(JOB_ID)).toBeUndefined();
  });
});
