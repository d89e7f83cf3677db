import { describe, expect, it } from 'vitest';
import { handleCancelledAfterRegistration } from '../../jobs/create-shipment/cancelled-after-registration.js';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import { registerShipment } from '../../jobs/create-shipment/register-shipment.js';
import type { PartnerClient } from '../../src/partner/client.js';
import { PartnerServerError } from '../../src/partner/errors.js';
import {
  createRequests,
  FIXTURE,
  holdPoint,
  registerDepsOf,
  type ShipmentStack,
  shipmentStacks,
  waitForJob,
} from '../helpers/shipment-stack.js';

const start = shipmentStacks();

const CANCEL_TAG = 'shipment-cancel-at-provider';

/** Replays a finished job, as an admin does from Bull Board, and waits for it to finish. */
async function replay(s: ShipmentStack, jobId: string) {
  const job = await s.queues.createShipment.getJob(jobId);
  await job!.retry('completed');
  return waitForJob(s.queues.createShipment, jobId, 'completed');
}

describe('an order cancelled after its shipment was registered', () => {
  it('flags the order once for staff, counts it once, and never fails or retries', async () => {
    const s = await start();
    const id = FIXTURE.paidCopenhagen;
    const jobId = orderJobId(id);
    await s.parts.enqueueOrder(id, 'orders/create');
    await waitForJob(s.queues.createShipment, jobId, 'completed');
    await waitForJob(s.queues.markOrder, `registered-${id}`, 'completed');
    const orderNumber = (await s.records.get(id))!.orderNumber!;

    await s.store.updateOrder(id, { cancel: true });
    // A registered order is never queued again, whatever event arrives ...
    expect(await s.parts.enqueueOrder(id, 'orders/cancelled')).toBe('already_registered');
    // ... but a replayed job finds it cancelled.
    const first = await replay(s, jobId);
    expect(first.returnvalue).toEqual({ outcome: 'cancelled_after_registration', orderNumber });
    await waitForJob(s.queues.markOrder, `cancelled-after-registration-${id}`, 'completed');

    const flaggedAt = (await s.records.get(id))?.cancelledAfterRegistrationAt;
    expect(flaggedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await s.counters.read()).cancelled_after_registration).toBe(1);
    const order = s.store.order(id)!;
    expect(order.tags).toContain(CANCEL_TAG);
    expect(order.note).toContain(
      `Cancelled after shipment ${orderNumber} was registered with the provider.`,
    );

    // The same cancellation seen again, by the intake and by another replay.
    const again = await handleCancelledAfterRegistration(id, {
      records: s.records,
      counters: s.counters,
      markOrder: (orderId, kind) => s.parts.markOrder(orderId, kind),
      logger: s.logger,
    });
    expect(again).toBe('already_flagged');
    const second = await replay(s, jobId);
    expect(second.returnvalue).toEqual({ outcome: 'cancelled_after_registration', orderNumber });

    expect((await s.counters.read()).cancelled_after_registration).toBe(1);
    expect((await s.records.get(id))?.cancelledAfterRegistrationAt).toBe(flaggedAt);
    const writes = s.store.mutations.filter((m) => m.orderId === id);
    expect(writes.filter((m) => m.type === 'tagsAdd' && m.tags.includes(CANCEL_TAG))).toHaveLength(
      1,
    );
    // The note's writes: the registration's metafields go through orderUpdate too.
    expect(writes.filter((m) => m.type === 'orderUpdate' && !m.metafields)).toHaveLength(1);
    const noteLines = s.store.order(id)?.note?.split('\n') ?? [];
    expect(noteLines.filter((line) => line.startsWith('Cancelled after shipment'))).toHaveLength(1);

    // No failure, no retry, no second shipment.
    expect(second.failedReason ?? undefined).toBeUndefined();
    expect(second.attemptsStarted).toBe(second.attemptsMade);
    expect(await s.queues.createShipment.getFailedCount()).toBe(0);
    expect(await s.queues.markOrder.getFailedCount()).toBe(0);
    expect(createRequests(s.sandbox)).toHaveLength(1);
    expect((await s.records.get(id))?.state).toBe('registered');
  });
});

describe('an order cancelled while its create job runs', () => {
  it('is flagged for staff when the run ends, not at the next reconciliation pass', async () => {
    const s = await start({ workers: false });
    const id = FIXTURE.paidCopenhagen;
    const jobId = orderJobId(id);
    // The provider has made the shipment; the job has not recorded it yet.
    const hold = holdPoint();
    const partner: PartnerClient = Object.create(s.partner);
    partner.createShipment = async (request, options) => {
      const result = await s.partner.createShipment(request, options);
      await hold.stop();
      return result;
    };
    s.startWorkers({ ports: { partner } });
    await s.parts.enqueueOrder(id, 'orders/create');
    await hold.reached;

    // WHEN the order is cancelled in Shopify at that moment
    await s.store.updateOrder(id, { cancel: true });
    expect(
      await s.parts.acceptOrderEvent({ orderId: id, source: 'orders/cancelled', cancelled: true }),
    ).toBe('already_queued');
    hold.release();

    // THEN the same run registers the shipment, looks again and flags the order
    const job = await waitForJob(s.queues.createShipment, jobId, 'completed');
    const orderNumber = (await s.records.get(id))?.orderNumber;
    expect(orderNumber).toMatch(/^PS-/);
    expect(job.returnvalue).toEqual({ outcome: 'cancelled_after_registration', orderNumber });
    await waitForJob(s.queues.markOrder, `cancelled-after-registration-${id}`, 'completed');
    expect(s.store.order(id)?.tags).toContain(CANCEL_TAG);
    expect((await s.counters.read()).cancelled_after_registration).toBe(1);
    expect(createRequests(s.sandbox)).toHaveLength(1);
  });
});

describe('an order cancelled while the answer to its create request was lost', () => {
  it('asks the provider, records the shipment it made, and flags the order for staff', async () => {
    const s = await start({ workers: false });
    const id = FIXTURE.paidCopenhagen;
    const deps = registerDepsOf(s);
    // The provider makes the shipment, then answers 500: we cannot tell it exists.
    s.sandbox.failNextCreates(1);
    await expect(registerShipment(id, deps)).rejects.toBeInstanceOf(PartnerServerError);
    const [made] = s.sandbox.shipments();

    await s.store.updateOrder(id, { cancel: true });
    const outcome = await registerShipment(id, deps);

    expect(outcome).toEqual({
      outcome: 'cancelled_after_registration',
      orderNumber: made?.orderNumber,
    });
    expect(await s.records.get(id)).toMatchObject({
      state: 'registered',
      orderNumber: made?.orderNumber,
    });
    expect((await s.records.get(id))?.cancelledAfterRegistrationAt).toBeDefined();
    expect(await s.queues.markOrder.getJob(`cancelled-after-registration-${id}`)).toBeDefined();
    // One create, then one look-up; no second create.
    expect(createRequests(s.sandbox).map((r) => r.status)).toEqual([500]);
  });

  it('skips an order the provider never saw, and asks about it only once', async () => {
    const s = await start({ workers: false });
    const id = FIXTURE.paidCopenhagen;
    await s.records.markSending(id);
    await s.store.updateOrder(id, { cancel: true });
    const deps = registerDepsOf(s);

    const outcome = await registerShipment(id, deps);

    expect(outcome).toMatchObject({ outcome: 'skipped', code: 'cancelled' });
    expect(s.sandbox.requests.map((r) => `${r.method} ${r.status}`)).toEqual(['GET 404']);
    expect((await s.records.get(id))?.sentAt).toBeUndefined();

    // Seen again (a later update, a reconciliation pass): the answer is known, nothing is asked.
    expect(await registerShipment(id, deps)).toMatchObject({ outcome: 'skipped' });
    expect(s.sandbox.requests).toHaveLength(1);
  });
});
