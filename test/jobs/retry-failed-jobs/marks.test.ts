import { describe, expect, it } from 'vitest';
import { JOB_CATALOG, JOBS } from '../../../jobs/catalog.js';
import { checkOrderEditJob } from '../../../jobs/check-order-edit/job.js';
import { markOrderJob } from '../../../jobs/mark-order/job.js';
import type { MarkOrderKind } from '../../../jobs/mark-order/payload.js';
import { RETRIES_PER_PASS, retryFailedJobs } from '../../../jobs/retry-failed-jobs/retry-pass.js';
import {
  FIXTURE,
  type ShipmentStack,
  shipmentStacks,
  waitForJob,
} from '../../helpers/shipment-stack.js';

const start = shipmentStacks();
const ID = FIXTURE.paidCopenhagen;
const MIN = 60_000;

/** Shopify throttles while a mark is written: the store client gives up after one wait. */
function stackWithImpatientStore() {
  return start({ storeClient: { maxThrottleWaits: 1, sleep: async () => {} } });
}

async function registeredRecord(s: ShipmentStack, orderId: string) {
  await s.records.markRegistered(orderId, {
    orderNumber: `PS-${orderId}`,
    status: 'pending',
    createdAt: '2026-11-22T10:00:00+01:00',
  });
}

/**
 * A registration mark through the real worker, with a single attempt so that one failure is
 * the last (the job's own ten attempts would take an hour of backoff).
 */
async function markThatFails(
  s: ShipmentStack,
  orderId: string,
  kind: MarkOrderKind = 'registered',
) {
  const data = { orderId, kind };
  const jobId = markOrderJob.jobId(data);
  await s.queues.markOrder.add(kind, data, { jobId, attempts: 1 });
  return waitForJob(s.queues.markOrder, jobId, 'failed');
}

const MAX_RETRIES = markOrderJob.redrive!.maxRetries;

function pass(s: ShipmentStack, now: number, perPass = RETRIES_PER_PASS) {
  return retryFailedJobs(
    {
      jobs: JOBS,
      queueOf: (definition) => s.parts.queueOf(definition),
      settings: s.config,
      counters: s.counters,
      logger: s.logger,
      perPass,
    },
    now,
  );
}

describe('retrying marks that failed for good', () => {
  it('retries a mark once its wait is over, and the order gets its marks', async () => {
    const s = await stackWithImpatientStore();
    await registeredRecord(s, ID);
    s.store.throttleNext(2);
    const failed = await markThatFails(s, ID);
    expect(failed.failedReason).toMatch(/Shopify throttled/);
    expect((await s.counters.read()).order_marks_failed).toBe(1);

    expect(await pass(s, failed.finishedOn! + 14 * MIN)).toMatchObject({
      failed: 1,
      notYetDue: 1,
      retried: 0,
    });
    expect(await pass(s, failed.finishedOn! + 15 * MIN)).toMatchObject({ failed: 1, retried: 1 });

    await waitForJob(s.queues.markOrder, failed.id!, 'completed');
    expect(s.store.order(ID)?.tags).toContain('shipment-registered');
    expect((await s.counters.read()).order_mark_retries).toBe(1);
  });

  it('waits twice as long after each retry that fails again', async () => {
    const s = await stackWithImpatientStore();
    await registeredRecord(s, ID);
    s.store.throttleNext(4);
    const first = await markThatFails(s, ID);
    await pass(s, first.finishedOn! + 15 * MIN);
    const second = await waitForJob(s.queues.markOrder, first.id!, 'failed', {
      what: 'the retried mark to fail again',
    });
    expect((await s.queues.markOrder.getJob(first.id!))?.data).toMatchObject({
      scheduledRetries: 1,
    });

    expect(await pass(s, second.finishedOn! + 29 * MIN)).toMatchObject({ notYetDue: 1 });
    expect(await pass(s, second.finishedOn! + 30 * MIN)).toMatchObject({ retried: 1 });
    await waitForJob(s.queues.markOrder, first.id!, 'completed');
  });

  it('does not retry on schedule what Shopify refused, and counts it', async () => {
    const s = await start();
    // Shopify has no such order: reading its marks finds none.
    const gone = '5559999';
    await registeredRecord(s, gone);
    const failed = await markThatFails(s, gone);
    expect(failed.failedReason).toMatch(/Order 5559999 was not found in the store/);

    const later = failed.finishedOn! + 30 * 24 * 60 * MIN;
    expect(await pass(s, later)).toEqual({
      failed: 1,
      retried: 0,
      notYetDue: 0,
      notRetried: 1,
      exhausted: 0,
    });
    expect(await s.queues.markOrder.getJobState(failed.id!)).toBe('failed');
    expect(await s.counters.read()).toMatchObject({
      order_marks_failed: 1,
      order_marks_refused: 1,
    });
  });

  it('leaves a mark to staff after the last scheduled retry', async () => {
    const s = await stackWithImpatientStore();
    await registeredRecord(s, ID);
    s.store.throttleNext(2);
    const failed = await markThatFails(s, ID);
    await failed.updateData({ ...failed.data, scheduledRetries: MAX_RETRIES });

    expect(await pass(s, failed.finishedOn! + 30 * 24 * 60 * MIN)).toMatchObject({
      exhausted: 1,
      retried: 0,
    });
  });

  it('retries at most `perPass` marks in one pass, the oldest failure first', async () => {
    const s = await stackWithImpatientStore();
    const ids = ['5550001', '5550002'];
    for (const id of ids) await registeredRecord(s, id);
    s.store.throttleNext(2);
    const older = await markThatFails(s, ids[0]!);
    s.store.throttleNext(2);
    const newer = await markThatFails(s, ids[1]!);

    const summary = await pass(s, newer.finishedOn! + 15 * MIN, 1);

    expect(summary).toMatchObject({ failed: 2, retried: 1, notYetDue: 1 });
    await waitForJob(s.queues.markOrder, older.id!, 'completed');
    expect(await s.queues.markOrder.getJobState(newer.id!)).toBe('failed');
  });

  it('runs as a scheduled job and reports what it found', async () => {
    const s = await stackWithImpatientStore();
    await registeredRecord(s, ID);
    s.store.throttleNext(2);
    await markThatFails(s, ID);

    const passJob = JOB_CATALOG.retryFailedJobs;
    const jobId = passJob.jobId({});
    await s.queues.retryFailedJobs.add(passJob.queue, {}, { jobId });
    const job = await waitForJob(s.queues.retryFailedJobs, jobId, 'completed');

    // Just failed: its first scheduled retry is 15 minutes away.
    expect(job.returnvalue).toEqual({
      failed: 1,
      retried: 0,
      notYetDue: 1,
      notRetried: 0,
      exhausted: 0,
    });
  });
});

describe('retrying edit checks that failed for good', () => {
  it('runs a failed check again once its wait is over', async () => {
    const s = await stackWithImpatientStore();
    await registeredRecord(s, ID);
    s.store.throttleNext(2);
    const data = { orderId: ID };
    const jobId = checkOrderEditJob.jobId(data);
    await s.queues.checkOrderEdit.add('check for edits', data, { jobId, attempts: 1 });
    const failed = await waitForJob(s.queues.checkOrderEdit, jobId, 'failed');

    expect(await pass(s, failed.finishedOn! + 14 * MIN)).toMatchObject({ retried: 0 });
    expect(await pass(s, failed.finishedOn! + 15 * MIN)).toMatchObject({ retried: 1 });
    const done = await waitForJob(s.queues.checkOrderEdit, jobId, 'completed');
    expect(done.returnvalue).toMatchObject({ outcome: 'baseline_recorded' });
    expect((await s.counters.read()).edit_check_retries).toBe(1);
  });
});
