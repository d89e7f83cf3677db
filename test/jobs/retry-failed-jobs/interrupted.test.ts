import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { JOB_CATALOG, JOBS } from '../../../jobs/catalog.js';
import { checkOrderEditJob } from '../../../jobs/check-order-edit/job.js';
import type { JobSettings } from '../../../jobs/context.js';
import { orderJobId } from '../../../jobs/create-shipment/job.js';
import { markOrderJob } from '../../../jobs/mark-order/job.js';
import { redriveOf, STALLED_TOO_OFTEN, WHEN_INTERRUPTED } from '../../../jobs/redrive.js';
import { retryFailedJobs } from '../../../jobs/retry-failed-jobs/retry-pass.js';
import { MAX_STALLED_COUNT } from '../../../src/compose/workers.js';
import {
  encodeFingerprint,
  shipmentFingerprint,
} from '../../../src/domain/shipment-fingerprint.js';
import { interruptJob } from '../../helpers/interrupt.js';
import {
  FIXTURE,
  type ShipmentStack,
  shipmentStacks,
  shipmentsWithReference,
  waitForJob,
  waitUntil,
} from '../../helpers/shipment-stack.js';

const start = shipmentStacks();
const MIN = 60_000;
const ID = FIXTURE.paidCopenhagen;
const JOB_ID = orderJobId(ID);

function pass(s: ShipmentStack, now: number) {
  return retryFailedJobs(
    {
      jobs: JOBS,
      queueOf: (definition) => s.parts.queueOf(definition),
      settings: s.config,
      counters: s.counters,
      logger: s.logger,
    },
    now,
  );
}

/**
 * Cuts the order's create job off `times` times with no worker running, then lets the service's
 * workers take it: BullMQ fails it in the worker once it was cut off too often.
 */
async function interruptedUntilFailed(s: ShipmentStack, times: number): Promise<Job> {
  await s.stopWorkers();
  await interruptJob(s.redis, s.prefix, s.queues.createShipment, JOB_ID, times);
  s.startWorkers();
  // The workers' start and BullMQ's stalled check come first: slow on a loaded machine.
  return waitForJob(s.queues.createShipment, JOB_ID, 'failed', {
    what: 'BullMQ to fail the interrupted job',
    timeoutMs: 30_000,
  });
}

async function recordReason(s: ShipmentStack): Promise<string | undefined> {
  return waitUntil(
    async () => {
      const record = await s.records.get(ID);
      return record?.state === 'failed' ? record.reason : null;
    },
    { what: 'the failure to be recorded' },
  );
}

// Each test waits for BullMQ to fail the job one or more times (interruptedUntilFailed).
describe('retrying jobs whose workers kept dying under them', { timeout: 120_000 }, () => {
  it('runs an interrupted create again once its wait is over: one shipment, registered', async () => {
    const s = await start({ workers: false });
    await s.parts.enqueueOrder(ID, 'test');
    const failed = await interruptedUntilFailed(s, MAX_STALLED_COUNT + 1);
    expect(failed.failedReason).toBe(STALLED_TOO_OFTEN);
    expect(await recordReason(s)).toMatch(
      /interrupted too often: .* the retry-failed-jobs schedule runs it again in about 10 minutes, or replay the job now\.$/,
    );
    await waitUntil(() => s.store.order(ID)?.tags.includes('shipment-error'), {
      what: 'the failure mark',
    });

    expect(await pass(s, failed.finishedOn! + 10 * MIN - 1)).toEqual({
      failed: 1,
      retried: 0,
      notYetDue: 1,
      notRetried: 0,
      exhausted: 0,
    });
    expect(await pass(s, failed.finishedOn! + 10 * MIN)).toMatchObject({ retried: 1 });

    const done = await waitForJob(s.queues.createShipment, JOB_ID, 'completed');
    expect(done.returnvalue).toMatchObject({ outcome: 'registered', created: true });
    expect(done.data).toMatchObject({ orderId: ID, interruptedRetries: 1 });
    expect(shipmentsWithReference(s.sandbox, ID)).toHaveLength(1);
    expect((await s.records.get(ID))?.state).toBe('registered');
    await waitUntil(() => s.store.order(ID)?.tags.includes('shipment-registered'), {
      what: 'the registration mark',
    });
    expect(s.store.order(ID)?.tags).not.toContain('shipment-error');
    expect((await s.counters.read()).interrupted_job_retries).toBe(1);
  });

  it('waits twice as long after each retry cut off again, and leaves the job to staff after three', async () => {
    const s = await start({ workers: false });
    await s.parts.enqueueOrder(ID, 'test');
    let failed = await interruptedUntilFailed(s, MAX_STALLED_COUNT + 1);

    for (const [retry, waitMin] of [
      [1, 10],
      [2, 20],
      [3, 40],
    ] as const) {
      await s.stopWorkers();
      expect(await pass(s, failed.finishedOn! + waitMin * MIN - 1)).toMatchObject({
        notYetDue: 1,
      });
      expect(await pass(s, failed.finishedOn! + waitMin * MIN)).toMatchObject({ retried: 1 });
      // BullMQ never resets its count of interruptions: one more is enough to fail it again.
      failed = await interruptedUntilFailed(s, 1);
      expect(failed.data.interruptedRetries).toBe(retry);
      expect(failed.stalledCounter).toBe(MAX_STALLED_COUNT + 1 + retry);
    }

    // The record still holds the previous failure's reason until this one is recorded.
    const lastReason =
      /ran it again 3 times and it was cut off each time: find what stops its worker \(its logs, its memory\), then replay the job\.$/;
    const reason = await waitUntil(
      async () => {
        const current = await recordReason(s);
        return current && lastReason.test(current) ? current : null;
      },
      { what: 'the last failure to be recorded' },
    );
    expect(reason).toMatch(lastReason);
    expect(await pass(s, failed.finishedOn! + 365 * 24 * 60 * MIN)).toEqual({
      failed: 1,
      retried: 0,
      notYetDue: 0,
      notRetried: 0,
      exhausted: 1,
    });
    expect(await s.queues.createShipment.getJobState(JOB_ID)).toBe('failed');
    expect((await s.counters.read()).interrupted_job_retries).toBe(3);
    // Every run was cut off before it reached the provider.
    expect(shipmentsWithReference(s.sandbox, ID)).toHaveLength(0);
  });

  it('runs again at the order’s next event when a request had left before the cut', async () => {
    const s = await start({ workers: false });
    await s.parts.enqueueOrder(ID, 'test');
    // The record as a run cut off mid-POST leaves it: the request left, no answer came (the
    // provider never got it here).
    const order = await s.storeClient.getOrder(ID);
    await s.records.markSending(
      ID,
      encodeFingerprint(shipmentFingerprint(order!, s.config.shipment)),
    );
    await interruptedUntilFailed(s, MAX_STALLED_COUNT + 1);
    await recordReason(s);

    // An interruption is not a refusal of the order as it is: its next event sends it.
    await s.parts.enqueueOrder(ID, 'orders/updated');
    const done = await waitForJob(s.queues.createShipment, JOB_ID, 'completed');
    expect(done.returnvalue).toMatchObject({ outcome: 'registered', created: true });
    expect(shipmentsWithReference(s.sandbox, ID)).toHaveLength(1);
  });

  it('leaves alone a job that failed for any other reason', async () => {
    const s = await start();
    const refused = FIXTURE.missingPostalCodeOdense;
    await s.parts.enqueueOrder(refused, 'test');
    const failed = await waitForJob(s.queues.createShipment, orderJobId(refused), 'failed');
    expect(failed.failedReason).not.toBe(STALLED_TOO_OFTEN);

    expect(await pass(s, failed.finishedOn! + 365 * 24 * 60 * MIN)).toEqual({
      failed: 1,
      retried: 0,
      notYetDue: 0,
      notRetried: 1,
      exhausted: 0,
    });
    expect(await s.queues.createShipment.getJobState(orderJobId(refused))).toBe('failed');
  });

  it('covers every job but the scheduled ones, and the marks and edit checks by their own rule', () => {
    const ownRule = [markOrderJob, checkOrderEditJob] as readonly unknown[];
    const expected = JOBS.filter((job) => !job.schedule && !ownRule.includes(job));
    expect(
      JOBS.filter((job) => redriveOf(job) === WHEN_INTERRUPTED)
        .map((job) => job.queue)
        .sort(),
    ).toEqual(expected.map((job) => job.queue).sort());
    expect(redriveOf(markOrderJob)).toBe(markOrderJob.redrive);
    expect(redriveOf(checkOrderEditJob)).toBe(checkOrderEditJob.redrive);
    expect(JOBS.filter((job) => job.schedule).map(redriveOf)).toEqual(
      JOBS.filter((job) => job.schedule).map(() => undefined),
    );
    expect(JOBS).toContain(JOB_CATALOG.retryFailedJobs);
  });

  it('runs its pass every minute, or as often as a shorter first wait', () => {
    const everyMs = (firstRetryDelayMs: number) =>
      JOB_CATALOG.retryFailedJobs.schedule!.everyMs({
        interruptedJobs: { firstRetryDelayMs },
      } as JobSettings);
    expect(everyMs(600_000)).toBe(60_000);
    expect(everyMs(2_000)).toBe(2_000);
  });
});
