import { type Job, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { createShipmentJob, orderJobId } from '../../jobs/create-shipment/job.js';
import { processorFor } from '../../jobs/processor.js';
import { MAX_STALLED_COUNT, startWorkers } from '../../src/compose/workers.js';
import type { PartnerClient } from '../../src/partner/client.js';
import type { OrderRecords } from '../../src/records/order-records.js';
import {
  createRequests,
  FIXTURE,
  metafield,
  type ShipmentStack,
  shipmentStacks,
  shipmentsWithReference,
  waitForJob,
  waitUntil,
} from '../helpers/shipment-stack.js';

const start = shipmentStacks();

describe('an eligible order becomes a shipment', () => {
  it('registers one shipment, records it and writes it back to the Shopify order', async () => {
    const s = await start();
    const id = FIXTURE.paidCopenhagen;

    expect(await s.parts.enqueueOrder(id, 'orders/create')).toBe('queued');
    const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');

    // One shipment at the provider, keyed by the order id, built from the order as it is now.
    const [shipment, ...others] = shipmentsWithReference(s.sandbox, id);
    expect(others).toEqual([]);
    expect(createRequests(s.sandbox).map((r) => r.status)).toEqual([201]);
    expect(shipment!.request).toMatchObject({
      reference: id,
      order_type: 'package',
      receiver: { name: 'Mette Hansen', address: { postal_code: '2200', country_code: 'DK' } },
    });
    // 2 × 1.2 kg + 4 × 0.35 kg; the gift card ships nothing.
    const kg = shipment!.request.packages.reduce((sum, p) => sum + p.quantity * p.weight_kg, 0);
    expect(kg).toBeCloseTo(3.8, 5);
    expect(job.returnvalue).toEqual({
      outcome: 'registered',
      orderNumber: shipment!.orderNumber,
      created: true,
    });

    const record = await s.records.get(id);
    expect(record).toMatchObject({
      state: 'registered',
      orderNumber: shipment!.orderNumber,
      partnerStatus: 'pending',
    });
    expect(record?.partnerCreatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/);
    expect(await s.records.registeredSince(new Date(0))).toEqual([id]);
    expect((await s.counters.read()).shipments_registered).toBe(1);

    await waitForJob(s.queues.markOrder, `registered-${id}`, 'completed');
    const order = s.store.order(id)!;
    expect(metafield(s.store, id, 'order_number')).toBe(shipment!.orderNumber);
    // The tag and the order number show it registered: no status metafield.
    expect(metafield(s.store, id, 'status')).toBeUndefined();
    expect(order.tags).toEqual(expect.arrayContaining(['newsletter', 'shipment-registered']));
    expect(order.tags).not.toContain('shipment-error');
  });
});

describe('one shipment per order', () => {
  it('makes one shipment per order however often and however concurrently it is queued', async () => {
    const s = await start();
    const ids = [FIXTURE.paidCopenhagen, FIXTURE.documentAarhus];

    // GIVEN webhooks, reconciliation and a backfill all delivering the same orders at once
    const burst = await Promise.all(
      ids.flatMap((id) => Array.from({ length: 5 }, () => s.parts.enqueueOrder(id, 'webhook'))),
    );
    expect(burst.every((r) => ['queued', 'already_queued', 'already_registered'].includes(r))).toBe(
      true,
    );
    // ... and again while the jobs run
    await Promise.all(ids.map((id) => s.parts.enqueueOrder(id, 'reconcile')));

    for (const id of ids) await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');
    // ... and once more after they were registered
    for (const id of ids)
      expect(await s.parts.enqueueOrder(id, 'backfill')).toBe('already_registered');

    // THEN one job, one POST and one shipment per order
    expect(await s.queues.createShipment.getJobCounts('completed', 'failed', 'waiting')).toEqual({
      completed: ids.length,
      failed: 0,
      waiting: 0,
    });
    expect(createRequests(s.sandbox).map((r) => r.status)).toEqual(ids.map(() => 201));
    for (const id of ids) expect(shipmentsWithReference(s.sandbox, id)).toHaveLength(1);
    expect((await s.counters.read()).shipments_registered).toBe(ids.length);
  });

  it('retries a 500 with the same reference: the provider answers 200 with the shipment it made', async () => {
    const s = await start();
    const id = FIXTURE.paidCopenhagen;
    // The provider stores the shipment, then fails to answer.
    s.sandbox.failNextCreates(1);

    await s.parts.enqueueOrder(id, 'test');
    const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');

    expect(createRequests(s.sandbox).map((r) => r.status)).toEqual([500, 200]);
    const shipments = shipmentsWithReference(s.sandbox, id);
    expect(shipments).toHaveLength(1);
    expect(job.attemptsMade).toBe(2);
    expect(job.returnvalue).toEqual({
      outcome: 'registered',
      orderNumber: shipments[0]!.orderNumber,
      created: false,
    });
    expect(await s.records.get(id)).toMatchObject({
      state: 'registered',
      orderNumber: shipments[0]!.orderNumber,
    });
    await waitForJob(s.queues.markOrder, `registered-${id}`, 'completed');
    expect(metafield(s.store, id, 'order_number')).toBe(shipments[0]!.orderNumber);
  });
});

describe('a 201 whose body cannot be read', () => {
  it.each(['invalid-json', 'schema'] as const)(
    'is a registration (%s): the shipment is looked up by reference, never created again',
    async (kind) => {
      const s = await start();
      const id = FIXTURE.paidCopenhagen;
      // The provider stores the shipment; its answer arrives garbled.
      s.sandbox.failNextWithMalformedBody(kind);

      await s.parts.enqueueOrder(id, 'test');
      const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');

      const [shipment, ...others] = shipmentsWithReference(s.sandbox, id);
      expect(others).toEqual([]);
      expect(s.sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
        'POST /api/v1/shipments 201',
        `GET /api/v1/shipments/${id} 200`,
      ]);
      expect(job.attemptsMade).toBe(1);
      expect(job.returnvalue).toEqual({
        outcome: 'registered',
        orderNumber: shipment!.orderNumber,
        created: true,
      });
      expect(await s.records.get(id)).toMatchObject({
        state: 'registered',
        orderNumber: shipment!.orderNumber,
        partnerStatus: 'pending',
      });
      await waitForJob(s.queues.markOrder, `registered-${id}`, 'completed');
      expect(metafield(s.store, id, 'order_number')).toBe(shipment!.orderNumber);
      expect(s.store.order(id)?.tags).not.toContain('shipment-error');
    },
  );
});

/**
 * A worker process that dies in the middle of a job, simulated honestly: the job is fetched by a
 * BullMQ worker of its own (the manual-fetch API, as a dying process would have it: active, with
 * a lock nobody renews), and the real processor runs with the real partner client and Redis
 * until the point of death, where a port call simply never returns. The process is "gone": the
 * lock expires and BullMQ's stalled-job check moves the job back to wait. That check runs every
 * 30 s in the service's workers; a checker with a 100 ms interval stands in for it so the test
 * does not wait half a minute. Then the service's own workers pick the job up and run it again.
 */
async function killWorkerDuringJob(
  s: ShipmentStack,
  killAt: 'after-post' | 'after-record',
): Promise<Job> {
  const doomed = new Worker(createShipmentJob.queue, null, {
    connection: s.redis,
    prefix: s.prefix,
    autorun: false,
    lockDuration: 300,
  });
  doomed.on('error', () => {});
  const job = await doomed.getNextJob('doomed-worker-token');
  if (!job) throw new Error('the doomed worker found no job');

  let die!: () => void;
  const dead = new Promise<void>((resolve) => {
    die = resolve;
  });
  const never = new Promise<never>(() => {});
  // The records as the service has them, except that the death can strike right after the
  // registration is recorded, before its mark on Shopify is queued.
  const records: OrderRecords = Object.create(s.records);
  records.markRegistered = async (...args) => {
    await s.records.markRegistered(...args);
    if (killAt !== 'after-record') return;
    die(); // the record is written; the mark is never queued
    return never;
  };
  const partner: PartnerClient = Object.create(s.partner);
  partner.createShipment = async (request, options) => {
    const result = await s.partner.createShipment(request, options);
    if (killAt !== 'after-post') return result;
    die(); // the provider has the shipment; the answer never gets further
    return never;
  };
  const processor = processorFor(createShipmentJob, { ...s.context, partner, records });
  void processor(job).catch(() => {});
  await dead;
  await doomed.close(true);
  return job;
}

async function recoverStalledJob(s: ShipmentStack, jobId: string): Promise<void> {
  const checker = new Worker(createShipmentJob.queue, null, {
    connection: s.redis,
    prefix: s.prefix,
    autorun: false,
    stalledInterval: 100,
    // The checking process decides when a job has stalled too often: the service's workers do.
    maxStalledCount: MAX_STALLED_COUNT,
  });
  checker.on('error', () => {});
  void checker.startStalledCheckTimer();
  try {
    await waitForJob(s.queues.createShipment, jobId, 'waiting', { what: 'the stalled job' });
  } finally {
    await checker.close();
  }
}

describe('a worker killed in the middle of a job', () => {
  it('killed after the POST, before the record: the rerun gets 200 and records the same shipment', async () => {
    const s = await start({ workers: false });
    const id = FIXTURE.paidCopenhagen;
    const jobId = orderJobId(id);
    await s.parts.enqueueOrder(id, 'test');

    await killWorkerDuringJob(s, 'after-post');
    expect(createRequests(s.sandbox).map((r) => r.status)).toEqual([201]);
    expect((await s.records.get(id))?.state).toBe('sending');
    expect(await s.queues.createShipment.getJobState(jobId)).toBe('active');

    await recoverStalledJob(s, jobId);
    s.startWorkers();
    const job = await waitForJob(s.queues.createShipment, jobId, 'completed');

    const shipments = shipmentsWithReference(s.sandbox, id);
    expect(shipments).toHaveLength(1);
    expect(createRequests(s.sandbox).map((r) => r.status)).toEqual([201, 200]);
    expect(job.returnvalue).toEqual({
      outcome: 'registered',
      orderNumber: shipments[0]!.orderNumber,
      created: false,
    });
    // The death cost no attempt: BullMQ counts only the run that finished.
    expect(job.attemptsStarted).toBe(2);
    expect(job.attemptsMade).toBe(1);
    expect(await s.records.get(id)).toMatchObject({
      state: 'registered',
      orderNumber: shipments[0]!.orderNumber,
    });
    await waitForJob(s.queues.markOrder, `registered-${id}`, 'completed');
    expect(s.store.order(id)?.tags).toContain('shipment-registered');
  });

  it('killed after the record, before the mark job was queued: the rerun still marks the order', async () => {
    const s = await start({ workers: false });
    const id = FIXTURE.paidCopenhagen;
    const jobId = orderJobId(id);
    await s.parts.enqueueOrder(id, 'test');

    await killWorkerDuringJob(s, 'after-record');
    const recorded = await s.records.get(id);
    expect(recorded?.state).toBe('registered');
    expect(await s.queues.markOrder.getJob(`registered-${id}`)).toBeUndefined();

    await recoverStalledJob(s, jobId);
    s.startWorkers();
    const job = await waitForJob(s.queues.createShipment, jobId, 'completed');

    expect(job.returnvalue).toEqual({
      outcome: 'already_registered',
      orderNumber: recorded?.orderNumber,
    });
    expect(createRequests(s.sandbox)).toHaveLength(1);
    await waitForJob(s.queues.markOrder, `registered-${id}`, 'completed');
    await waitUntil(() => s.store.order(id)?.tags.includes('shipment-registered'), {
      what: 'the shipment-registered tag',
    });
    expect(metafield(s.store, id, 'order_number')).toBe(recorded?.orderNumber);
  });
});

describe('a job interrupted again and again', () => {
  it('runs again after two interruptions (a deploy cut it short, then a crash) and registers', async () => {
    const s = await start({ workers: false });
    const id = FIXTURE.paidCopenhagen;
    const jobId = orderJobId(id);
    await s.parts.enqueueOrder(id, 'test');

    for (let stall = 1; stall <= 2; stall++) {
      await killWorkerDuringJob(s, 'after-post');
      await recoverStalledJob(s, jobId);
    }
    s.startWorkers();
    const job = await waitForJob(s.queues.createShipment, jobId, 'completed');

    expect(job.stalledCounter).toBe(2);
    expect(job.returnvalue).toMatchObject({ outcome: 'registered', created: false });
    expect(shipmentsWithReference(s.sandbox, id)).toHaveLength(1);
    expect((await s.records.get(id))?.state).toBe('registered');
  });

  it('fails once interrupted too often, and records and marks that once, as any failure', async () => {
    const s = await start({ workers: false });
    const id = FIXTURE.paidCopenhagen;
    const jobId = orderJobId(id);
    await s.parts.enqueueOrder(id, 'test');

    for (let stall = 1; stall <= MAX_STALLED_COUNT + 1; stall++) {
      await killWorkerDuringJob(s, 'after-post');
      await recoverStalledJob(s, jobId);
    }
    expect((await s.records.get(id))?.state).toBe('sending');
    // Two worker processes: BullMQ fails the job in whichever takes it, before any processor runs.
    s.startWorkers();
    const otherProcess = startWorkers(s.context, { connection: s.redis });
    try {
      const job = await waitForJob(s.queues.createShipment, jobId, 'failed');
      expect(job.stalledCounter).toBe(MAX_STALLED_COUNT + 1);

      // Recorded like every other failure: the reason, the order's marks, the counter.
      const record = await waitUntil(
        async () => {
          const r = await s.records.get(id);
          return r?.state === 'failed' ? r : null;
        },
        { what: 'the failure to be recorded' },
      );
      expect(record.reason).toBe(
        `The job was interrupted too often: its worker stopped in the middle of it (a crash, a shutdown that could not wait for it, or a lost Redis connection), so BullMQ stopped running it. Running it again is safe: the retry-failed-jobs schedule runs it again in about 10 minutes, or replay the job now.`,
      );
      await waitUntil(() => s.store.order(id)?.tags.includes('shipment-error'), {
        what: 'the shipment-error tag',
      });
      expect(metafield(s.store, id, 'error')).toBe(record.reason);
      await waitUntil(async () => (await s.counters.read()).shipment_create_failures === 1, {
        what: 'the failure to be counted',
      });
      // Each interrupted run noted the order it loaded, each after the first under a line that
      // starts it; the reason closes the log.
      const { logs } = await s.queues.createShipment.getJobLogs(jobId);
      expect(logs.at(-1)).toBe(record.reason);
      const steps = logs.slice(0, -1);
      expect(new Set(steps.filter((line) => !line.startsWith('── run at ')))).toEqual(
        new Set([`loaded order ${s.store.order(id)?.name}`]),
      );
      expect(steps.filter((line) => line.startsWith('── run at ')).length).toBeGreaterThan(0);
      const markJobs = await s.queues.markOrder.getJobs(['waiting', 'active', 'completed']);
      expect(markJobs.filter((j) => j.data.kind === 'failed')).toHaveLength(1);
    } finally {
      await Promise.all(otherProcess.map((worker) => worker.close()));
    }

    // A replay runs it again, and it registers the shipment the provider already made.
    expect(await s.parts.enqueueOrder(id, 'replay')).toBe('requeued');
    const replayed = await waitForJob(s.queues.createShipment, jobId, 'completed');
    expect(replayed.returnvalue).toMatchObject({ outcome: 'registered', created: false });
    expect(shipmentsWithReference(s.sandbox, id)).toHaveLength(1);
  });
});
