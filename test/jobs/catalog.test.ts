import { afterEach, describe, expect, it } from 'vitest';
import { JOB_CATALOG, JOBS } from '../../jobs/catalog.js';
import { createShipmentJob } from '../../jobs/create-shipment/job.js';
import { markOrderJob } from '../../jobs/mark-order/job.js';
import { startWorkers, upsertSchedules } from '../../src/compose/workers.js';
import { intakeOnTestRedis, SETTINGS } from '../helpers/intake.js';
import { shipmentStacks, waitForJob } from '../helpers/shipment-stack.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function parts() {
  const intake = await intakeOnTestRedis('catalog');
  closers.push(() => intake.close());
  return intake;
}

/** A payload of each job, as its enqueue rules would make it. */
const SAMPLES: Record<string, unknown> = {
  'create-shipment': { orderId: '5551234', source: 'orders/paid' },
  'mark-order': { orderId: '5551234', kind: 'registered' },
  'reconcile-orders': {},
  'check-order-edit': { orderId: '5551234' },
  'retry-failed-jobs': {},
  'sync-shipments': {},
  'write-shipment-status': { reference: '5551234', version: '1763805600000' },
  'report-shipment-progress': { reference: '5551234' },
  'fulfil-shipment': { reference: '5551234', version: '9f86d081884c7d65' },
  'record-delivery': { reference: '5551234' },
  'flag-cancelled-shipment': { reference: '5551234' },
};

describe('the job catalog', () => {
  it('names each queue once', () => {
    const names = JOBS.map((job) => job.queue);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(JOBS.map((job) => [job.queue, job] as const))(
    '%s: job ids that BullMQ accepts (no ":", never all digits)',
    (queue, job) => {
      expect(SAMPLES[queue], `add a sample payload for ${queue}`).toBeDefined();
      const id = job.jobId(job.payload.parse(SAMPLES[queue]));
      expect(id).not.toContain(':');
      expect(id).not.toMatch(/^\d+$/);
    },
  );

  it('refuses a payload with personal data or a bad id at enqueue', async () => {
    const intake = await parts();

    await expect(intake.enqueueOrder('not-an-id', 'test')).rejects.toThrow(
      /numeric Shopify order id/,
    );
    // Anything beyond the ids is dropped before it reaches Redis.
    expect(
      createShipmentJob.payload.parse({ orderId: '1', source: 's', email: 'a@example.com' }),
    ).toEqual({ orderId: '1', source: 's' });
    expect(await intake.queues.createShipment.count()).toBe(0);
  });

  it('builds one queue per job with the job’s own options', async () => {
    const intake = await parts();

    for (const [key, job] of Object.entries(JOB_CATALOG)) {
      const queue = intake.queues[key as keyof typeof JOB_CATALOG];
      expect(queue.name).toBe(job.queue);
      expect(queue.defaultJobOptions).toMatchObject(job.options(SETTINGS));
    }
    expect(intake.queues.createShipment.defaultJobOptions.attempts).toBe(
      SETTINGS.createJob.attempts,
    );
  });

  it('registers the scheduler of every scheduled job', async () => {
    const intake = await parts();

    await upsertSchedules(intake);

    for (const job of JOBS) {
      const schedulers = await intake.queueOf(job).getJobSchedulers();
      expect(schedulers.map((s) => s.key)).toEqual(job.schedule ? [job.schedule.id] : []);
    }
  });
});

describe('workers made from the catalog', () => {
  const start = shipmentStacks();

  it('run one worker per job, at the job’s own concurrency unless told otherwise', async () => {
    const s = await start({ workers: false });
    const workers = startWorkers(s.context, { connection: s.redis, concurrency: { markOrder: 7 } });
    try {
      expect(workers.map((w) => w.name)).toEqual(JOBS.map((job) => job.queue));
      expect(workers.map((w) => w.concurrency)).toEqual(
        JOBS.map((job) => (job === markOrderJob ? 7 : job.concurrency)),
      );
    } finally {
      await Promise.all(workers.map((w) => w.close()));
    }
  });

  it('fail a job whose payload does not match its schema, saying so', async () => {
    const s = await start();
    await s.queues.markOrder.add(
      'mark-order',
      { orderId: '5551234', kind: 'shipped' },
      {
        jobId: 'bad-payload',
      },
    );

    const job = await waitForJob(s.queues.markOrder, 'bad-payload', 'failed');

    expect(job.failedReason).toMatch(/^Malformed job payload/);
    expect(job.attemptsMade).toBe(1);
  });
});
