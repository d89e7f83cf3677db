import { type Job, Worker } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueueEditCheck } from '../../../jobs/check-order-edit/enqueue.js';
import { checkOrderEditJob } from '../../../jobs/check-order-edit/job.js';
import { allJobs, intakeOnTestRedis, waitFor } from '../../helpers/intake.js';
import { testRedis } from '../../helpers/redis.js';

const ORDER_ID = '5551234';

let intake: Awaited<ReturnType<typeof intakeOnTestRedis>>;
const workers: Worker[] = [];

beforeEach(async () => {
  intake = await intakeOnTestRedis('edit-check');
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close(true)));
  await intake.close();
});

const jobsOf = () => allJobs(intake.queues.checkOrderEdit);

describe('enqueueEditCheck', () => {
  it('keeps one waiting check per order however many events come', async () => {
    for (let i = 0; i < 5; i++) await enqueueEditCheck(intake, ORDER_ID);
    await enqueueEditCheck(intake, '5559999');

    const jobs = await jobsOf();
    expect(jobs.map((job) => job.data)).toEqual(
      expect.arrayContaining([{ orderId: ORDER_ID }, { orderId: '5559999' }]),
    );
    expect(jobs).toHaveLength(2);
    expect(await Promise.all(jobs.map((job) => job.getState()))).toEqual(['delayed', 'delayed']);
  });

  it('runs one more check after a running one when an event comes meanwhile', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ran: string[] = [];
    const worker = new Worker(
      checkOrderEditJob.queue,
      async (job: Job) => {
        ran.push(job.id!);
        if (ran.length === 1) await released;
        return { outcome: 'unchanged' };
      },
      { connection: testRedis(), prefix: intake.prefix },
    );
    worker.on('error', () => {});
    workers.push(worker);

    await enqueueEditCheck(intake, ORDER_ID);
    await waitFor(() => ran.length === 1, { what: 'the first check to start' });
    // The running check may have read the order before these changes.
    await enqueueEditCheck(intake, ORDER_ID);
    await enqueueEditCheck(intake, ORDER_ID);
    expect(await jobsOf()).toHaveLength(1);
    release();

    await waitFor(() => ran.length === 2, { what: 'the second check', timeoutMs: 8_000 });
    const jobs = await jobsOf();
    expect(jobs).toHaveLength(2);
    expect(new Set(jobs.map((job) => job.id))).toEqual(new Set(ran));
  });
});
