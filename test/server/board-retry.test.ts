import { describe, expect, it } from 'vitest';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import { FIXTURE, shipmentStacks, waitForJob, waitUntil } from '../helpers/shipment-stack.js';

const start = shipmentStacks();
const ID = FIXTURE.missingPostalCodeOdense;
const RUN_HEADER = /^── run at \d{4}-\d\d-\d\dT[\d:.]+Z, attempt \d+ ──$/;

/** What Bull Board's Retry button does: `job.retry(state)` on the failed job. */
async function retryAsTheBoardDoes(s: Awaited<ReturnType<typeof start>>) {
  const job = await s.queues.createShipment.getJob(orderJobId(ID));
  await job!.retry('failed');
}

describe('a staff retry from the board of an order refused and not changed since', () => {
  it('says in one line that nothing changed, shows the reason once, and starts its own log section', async () => {
    const s = await start();
    await s.parts.enqueueOrder(ID, 'orders/paid');
    const first = await waitForJob(s.queues.createShipment, orderJobId(ID), 'failed');
    expect(first.failedReason).toMatch(/^Order #\d+ cannot be shipped as it is:/);
    const firstLogs = (await s.queues.createShipment.getJobLogs(orderJobId(ID))).logs;
    // A first run has no header.
    expect(firstLogs.some((line) => RUN_HEADER.test(line))).toBe(false);
    const record = await s.records.get(ID);

    await retryAsTheBoardDoes(s);
    await waitUntil(
      async () => (await s.queues.createShipment.getJob(orderJobId(ID)))?.attemptsMade === 2,
      { what: 'the retry to end' },
    );
    const again = await waitForJob(s.queues.createShipment, orderJobId(ID), 'failed');

    const [note, ...reason] = again.failedReason.split('\n');
    expect(note).toBe(
      `Retried unchanged: the order is as it was when it was refused (${record?.updatedAt.slice(0, 10)} ${record?.updatedAt.slice(11, 16)} UTC). Fix it in Shopify, then retry.`,
    );
    expect(reason.join('\n')).toBe(first.failedReason);
    // Bull Board's Error tab shows the job's stack trace list: the last failure only.
    expect(again.stacktrace).toEqual([again.failedReason]);

    const { logs } = await s.queues.createShipment.getJobLogs(orderJobId(ID));
    expect(logs.slice(0, firstLogs.length)).toEqual(firstLogs);
    const secondRun = logs.slice(firstLogs.length);
    expect(secondRun[0]).toMatch(RUN_HEADER);
    expect(secondRun[0]).toContain('attempt 2');
    expect(secondRun.slice(1)).toEqual(firstLogs);
    // The record keeps the reason as it was: nothing new is written onto the order.
    expect((await s.records.get(ID))?.reason).toBe(record?.reason);
  });
});
