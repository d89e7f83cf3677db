import { describe, expect, it } from 'vitest';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import { driftReport } from '../../src/compose/drift.js';
import type { FakeOrderInput } from '../../src/sandbox/store/index.js';
import { type ShipmentStack, shipmentStacks, waitForJob } from '../helpers/shipment-stack.js';
import { settled } from '../helpers/status-sync.js';

/**
 * `connector drift` judges an order by what its shipment holds, the answer the worker gives: an
 * order with nothing for the provider is not "paid without shipment", and a fulfillment of units
 * left out of the shipment is not "fulfilled but not shipped".
 */

const start = shipmentStacks();
const MUG = { title: 'Ceramic mug', weight: { value: 350, unit: 'GRAMS' as const } };
const placed = new Date(Date.now() - 3 * 3600_000).toISOString();

async function place(s: ShipmentStack, id: string, order: FakeOrderInput) {
  await s.store.createOrder(
    { ...order, id, createdAt: placed, updatedAt: placed },
    { sendWebhook: false },
  );
}

async function run(s: ShipmentStack, id: string) {
  await s.parts.enqueueOrder(id, 'orders/paid');
  await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');
  await settled(s);
}

describe('connector drift, by what each shipment holds', () => {
  it('lists neither correctly skipped orders nor fulfillments of units the provider does not ship', async () => {
    const s = await start();
    const [pickupSkipped, pickupUnseen, mixedPickupFulfilled, fulfilledByStaff] = [
      '5562001',
      '5562002',
      '5562003',
      '5562004',
    ];
    const pickup = { lineItems: [{ ...MUG, deliveryMethod: 'PICK_UP' as const }] };
    await place(s, pickupSkipped, pickup);
    await place(s, pickupUnseen, pickup);
    await place(s, mixedPickupFulfilled, {
      lineItems: [MUG, { title: 'Vase', deliveryMethod: 'PICK_UP' }],
    });
    await place(s, fulfilledByStaff, { lineItems: [MUG] });
    for (const id of [pickupSkipped, mixedPickupFulfilled, fulfilledByStaff]) await run(s, id);
    expect((await s.records.get(pickupSkipped))?.skipCode).toBe('no_shipping');

    // The customer collects the vase; staff mark the other order's parcel fulfilled themselves.
    await s.store.fulfil(
      mixedPickupFulfilled,
      { lines: [{ title: 'Vase', quantity: 1 }] },
      { sendWebhook: false },
    );
    await s.store.fulfil(fulfilledByStaff, {}, { sendWebhook: false });

    const report = await driftReport(
      { parts: s.parts, partner: s.partner, store: s.storeClient },
      { olderThanMinutes: 0, lookbackDays: 1, maxFulfillmentReads: 10 },
    );

    const paid = report.paidWithoutShipment.orders.map((o) => o.orderId);
    expect(paid).not.toContain(pickupSkipped);
    expect(paid).not.toContain(pickupUnseen);
    expect(report.fulfilledNotShipped.orders.map((o) => o.orderId)).toEqual([fulfilledByStaff]);
  });

  it('lists an order waiting on a hold once reconciliation no longer reads it again', async () => {
    const s = await start();
    const [held, heldUnseen] = ['5562011', '5562012'];
    const onHold = {
      lineItems: [MUG],
      fulfillmentOrders: [{ hold: { reason: 'INCORRECT_ADDRESS' as const } }],
    };
    await place(s, held, onHold);
    await place(s, heldUnseen, onHold);
    await run(s, held);
    expect((await s.records.get(held))?.skipCode).toBe('held');
    const report = () =>
      driftReport(
        { parts: s.parts, partner: s.partner, store: s.storeClient },
        { olderThanMinutes: 0, lookbackDays: 1, maxFulfillmentReads: 10 },
      ).then((r) => r.paidWithoutShipment.orders.map((o) => o.orderId).sort());

    // Waiting and watched: not drift. Never seen (no record, not watched): drift.
    expect(await report()).toEqual([heldUnseen]);

    // The waiting index loses it (a Redis restored from an older copy, say): its skip and the
    // unchanged order alone would say all is well, but nothing would send it once released.
    await s.redis.zrem(`${s.prefix}:orders:waiting`, held);
    expect(await report()).toEqual([held, heldUnseen]);
  });

  it('lists an order that has waited on Shopify for more than 7 days, still looked at', async () => {
    const s = await start();
    const [held, preOrder] = ['5562021', '5562022'];
    await place(s, held, {
      lineItems: [MUG],
      fulfillmentOrders: [{ hold: { reason: 'OTHER' as const } }],
    });
    // Scheduled three weeks ahead: not late before its date.
    const opens = new Date(Date.now() + 21 * 24 * 3600_000).toISOString();
    await place(s, preOrder, { lineItems: [MUG], fulfillmentOrders: [{ fulfillAt: opens }] });
    await run(s, held);
    await run(s, preOrder);
    expect(await s.records.isWaiting(held)).toBe(true);
    expect(await s.records.isWaiting(preOrder)).toBe(true);
    const inDays = (days: number) =>
      driftReport(
        { parts: s.parts, partner: s.partner, store: s.storeClient },
        {
          olderThanMinutes: 0,
          lookbackDays: 1,
          maxFulfillmentReads: 10,
          now: () => Date.now() + days * 24 * 3600_000,
        },
      ).then((r) => r.waitingTooLong);

    expect(await inDays(6)).toEqual({ count: 0, days: 7, orders: [] });
    expect(await inDays(8)).toEqual({
      count: 1,
      days: 7,
      orders: [
        {
          orderId: held,
          waitingSince: (await s.records.get(held))!.waitingSince,
          reason: expect.stringMatching(/^Waiting: 1 × Ceramic mug is on hold/),
        },
      ],
    });
    // Still read again by reconciliation.
    expect(await s.records.isWaiting(held)).toBe(true);
    // The pre-order once its date is 8 days past, still scheduled.
    expect((await inDays(29)).orders.map((o) => o.orderId)).toEqual([held, preOrder]);
  });
});
