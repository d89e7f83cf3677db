import { describe, expect, it, onTestFinished } from 'vitest';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import { numberKey, SHIPMENT_UPDATES, updateJobId } from '../../jobs/shipment-updates/updates.js';
import type { PartnerClient } from '../../src/partner/client.js';
import { retryFailedJob } from '../../src/queue/failed-jobs.js';
import type { ShipmentTracking } from '../../src/records/shipment-tracking.js';
import type { FakeOrderInput } from '../../src/sandbox/store/index.js';
import {
  holdPoint,
  metafield,
  type ShipmentStack,
  type ShipmentStackOptions,
  shipmentStacks,
  waitForJob,
  waitUntil,
} from '../helpers/shipment-stack.js';
import { providerClock, runSync, settled, shopifyWrites } from '../helpers/status-sync.js';

const start = shipmentStacks();

async function stack(
  options: { scopes?: string[]; shipment?: ShipmentStackOptions['shipment'] } = {},
) {
  const time = providerClock();
  const s = await start({
    sandbox: { clock: time.clock },
    ...(options.shipment ? { shipment: options.shipment } : {}),
  });
  if (options.scopes) s.store.setAccessScopes(options.scopes);
  return { s, tick: time.tick };
}

/** A Shopify write's retry runs once it is scheduled: its backoff's clock driven, not waited out. */
function retriesAtOnce(s: ShipmentStack): void {
  const names = new Set<string>(Object.values(SHIPMENT_UPDATES).map((update) => update.queue));
  const queues = Object.values(s.queues).filter((queue) => names.has(queue.name));
  const promote = async () => {
    for (const queue of queues) {
      for (const job of await queue.getDelayed()) await job.promote().catch(() => {});
    }
  };
  const timer = setInterval(() => void promote().catch(() => {}), 50);
  onTestFinished(() => clearInterval(timer));
}

let nextId = 8_000_000;

/** An eligible order, registered at the provider through the real create-shipment job. */
async function registeredOrder(
  s: ShipmentStack,
  order: FakeOrderInput = {},
  beforeSending?: (id: string) => Promise<void>,
): Promise<string> {
  nextId += 1;
  const id = String(nextId);
  await s.store.createOrder({ ...order, id }, { sendWebhook: false });
  await beforeSending?.(id);
  await s.parts.enqueueOrder(id, 'orders/paid');
  await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');
  await settled(s);
  return id;
}

const live = (s: ShipmentStack, id: string) =>
  s.store.order(id)!.fulfillments.filter((f) => f.status === 'SUCCESS');
const emails = (s: ShipmentStack, id: string) =>
  s.store.notifications.filter((n) => n.orderId === id).map((n) => n.kind);

async function ship(s: ShipmentStack, tick: () => void, id: string, trackingNumber = `TN${id}`) {
  tick();
  s.sandbox.advance(id, 'shipped', { carrier: 'PostNord', trackingNumber });
  await runSync(s);
  await settled(s);
}

async function startProcessing(s: ShipmentStack, tick: () => void, id: string) {
  tick();
  s.sandbox.advance(id, 'processing');
  await runSync(s);
  await settled(s);
}

async function failedFulfilment(s: ShipmentStack, id: string) {
  return waitUntil(
    async () =>
      (await s.queues.fulfilShipment.getFailed()).find((job) => job.data.reference === id),
    { what: `a failed fulfil-shipment job of ${id}`, timeoutMs: 15_000 },
  );
}

describe('fulfilling in Shopify, case by case', () => {
  it('makes one fulfillment per location, each with the tracking', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s, {
      lineItems: [{ title: 'Mug' }, { title: 'Vase', location: 'Aarhus warehouse' }],
    });

    await ship(s, tick, id);

    const fulfillments = live(s, id);
    expect(fulfillments).toHaveLength(2);
    expect(new Set(fulfillments.map((f) => f.locationId)).size).toBe(2);
    for (const f of fulfillments) {
      expect(f.trackingInfo).toEqual([{ company: 'PostNord DK', number: `TN${id}`, url: null }]);
    }
    expect(s.store.order(id)!.fulfillmentOrders.every((fo) => fo.status === 'CLOSED')).toBe(true);
  });

  it("fulfils the merchant's part and leaves a fulfillment service's part alone", async () => {
    const { s, tick } = await stack({
      scopes: [
        ...['read_orders', 'write_orders', 'write_fulfillments'],
        'write_merchant_managed_fulfillment_orders',
        'read_third_party_fulfillment_orders',
      ],
    });
    const id = await registeredOrder(s, {
      lineItems: [{ title: 'Mug' }, { title: 'Print', location: "Another app's warehouse" }],
    });

    await ship(s, tick, id);

    const [fulfillment, ...more] = live(s, id);
    expect(more).toEqual([]);
    const byLocation = s.store.locations();
    const own = byLocation.find((l) => l.id === fulfillment!.locationId)!;
    expect(own.isFulfillmentService).toBe(false);
    const service = s.store
      .order(id)!
      .fulfillmentOrders.find(
        (fo) => byLocation.find((l) => l.id === fo.locationId)?.isFulfillmentService,
      );
    expect(service?.status).toBe('OPEN');
  });

  it('does not release an order put on hold after registration: tells staff, fails for replay, and fulfils once released', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s);
    await s.store.holdFulfillmentOrder(
      s.store.order(id)!.fulfillmentOrders[0]!.id,
      { reason: 'OTHER', reasonNotes: 'Check the address' },
      { sendWebhook: false },
    );

    await ship(s, tick, id);

    expect(live(s, id)).toEqual([]);
    const job = await failedFulfilment(s, id);
    expect(job.failedReason).toMatch(/is on hold .* in Shopify/);
    expect(job.failedReason).toMatch(/Release it in Shopify, then replay this job/);
    const order = s.store.order(id)!;
    expect(order.tags).toContain('shipment-not-fulfilled');
    expect(order.note).toMatch(/on hold/);
    expect(order.fulfillmentOrders[0]!.status).toBe('ON_HOLD');

    await s.store.releaseHold(order.fulfillmentOrders[0]!.id, { sendWebhook: false });
    await job.retry('failed');
    await settled(s);
    await waitForJob(s.queues.fulfilShipment, job.id!, 'completed');
    expect(live(s, id)).toHaveLength(1);
    expect(emails(s, id)).toEqual(['shipping_confirmation']);
  });

  it('adds the tracking to a fulfillment staff made without it, instead of a second one', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s);
    await s.store.fulfil(id, {}, { sendWebhook: false });
    const writes = s.store.mutations.length;

    await ship(s, tick, id);

    const [fulfillment, ...more] = live(s, id);
    expect(more).toEqual([]);
    expect(fulfillment!.trackingInfo[0]?.number).toBe(`TN${id}`);
    // The units as sent were refused (staff fulfilled them); the fulfillment given the tracking
    // shows it shipped, so no status metafields.
    expect(shopifyWrites(s, writes)).toEqual(['fulfillmentTrackingInfoUpdate']);
  });

  it('fulfils the units as sent without reading the order, and the progress report neither', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s, {
      lineItems: [{ title: 'Mug' }, { title: 'Vase', location: 'Aarhus warehouse' }],
    });
    const from = s.store.requests.length;

    await startProcessing(s, tick, id);
    await ship(s, tick, id);

    const operations = s.store.requests.slice(from).map((r) => r.operationName);
    expect(operations).not.toContain('GetOrder');
    expect(operations).not.toContain('ReadFulfillmentState');
    expect(operations.filter((op) => op?.startsWith('CreateFulfillment'))).toHaveLength(2);
    expect(live(s, id)).toHaveLength(2);
    const order = s.store.order(id)!;
    expect(order.fulfillmentOrders.every((fo) => fo.status === 'CLOSED')).toBe(true);
    expect(order.fulfillmentOrders.every((fo) => fo.progressReports.length === 1)).toBe(true);
    expect(emails(s, id)).toEqual(['shipping_confirmation', 'shipping_confirmation']);
  });

  it('reports no progress on a fulfillment order staff put on hold, and writes the status once', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s);
    const [fo] = s.store.order(id)!.fulfillmentOrders;
    await s.store.holdFulfillmentOrder(fo!.id, {}, { sendWebhook: false });
    const writes = s.store.mutations.length;
    const requests = s.store.requests.length;

    await startProcessing(s, tick, id);

    expect(s.store.order(id)!.fulfillmentOrders[0]!.progressReports).toEqual([]);
    // Collected from every location: reported unlooked, refused, then the order read.
    const operations = s.store.requests.slice(requests).map((r) => r.operationName);
    expect(operations.slice(0, 2)).toEqual(['ReportFulfillmentOrderProgress', 'GetOrder']);
    expect(operations).not.toContain('ReadFulfillmentOrdersById');
    // Nothing could be reported: the status metafields say it instead, written once.
    expect(shopifyWrites(s, writes)).toEqual(['orderUpdate']);
    expect(metafield(s.store, id, 'status')).toBe('processing');
  });

  it('fulfils only what is left of the units sent once staff fulfilled some of them', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s, { lineItems: [{ title: 'Mug', quantity: 3 }] });
    await s.store.fulfil(
      id,
      { lines: [{ title: 'Mug', quantity: 1 }], tracking: { number: 'STAFF-1' } },
      { sendWebhook: false },
    );

    await ship(s, tick, id);

    const [staff, ours, ...more] = live(s, id);
    expect(more).toEqual([]);
    expect(staff!.trackingInfo.map((t) => t.number)).toEqual(['STAFF-1']);
    expect(ours!.trackingInfo.map((t) => t.number)).toEqual([`TN${id}`]);
    expect(ours!.lineItems.reduce((n, l) => n + l.quantity, 0)).toBe(2);
    expect(s.store.order(id)!.fulfillmentOrders[0]!.status).toBe('CLOSED');
  });

  it('fulfils at the new location a fulfillment order staff moved whole after registration', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s);
    const [fo] = s.store.order(id)!.fulfillmentOrders;
    const moved = await s.store.moveFulfillmentOrder(fo!.id, 'Aarhus warehouse');
    expect(moved.id).toBe(fo!.id);

    await ship(s, tick, id);

    const [fulfillment, ...more] = live(s, id);
    expect(more).toEqual([]);
    expect(fulfillment!.locationId).toBe(moved.locationId);
    expect(fulfillment!.trackingInfo.map((t) => t.number)).toEqual([`TN${id}`]);
  });

  it('fulfils from the new fulfillment order what staff moved after fulfilling part, nothing twice', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s, { lineItems: [{ title: 'Mug' }, { title: 'Vase' }] });
    await s.store.fulfil(id, { lines: [{ title: 'Vase', quantity: 1 }] }, { sendWebhook: false });
    const [fo] = s.store.order(id)!.fulfillmentOrders;
    const moved = await s.store.moveFulfillmentOrder(fo!.id, 'Aarhus warehouse');
    expect(moved.id).not.toBe(fo!.id);

    await ship(s, tick, id);

    const [staff, ours, ...more] = live(s, id);
    expect(more).toEqual([]);
    expect(staff!.trackingInfo).toEqual([]);
    expect(ours!.locationId).toBe(moved.locationId);
    expect(ours!.trackingInfo.map((t) => t.number)).toEqual([`TN${id}`]);
    expect(ours!.fulfillmentOrderIds).toEqual([moved.id]);
  });

  it('reports no progress on a fulfillment order staff moved to a fulfillment service: refused unlooked, the order read, the status written', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s);
    const [fo] = s.store.order(id)!.fulfillmentOrders;
    await s.store.moveFulfillmentOrder(fo!.id, "Another app's warehouse");
    const requests = s.store.requests.length;

    await startProcessing(s, tick, id);

    expect(s.store.order(id)!.fulfillmentOrders[0]!.progressReports).toEqual([]);
    const operations = s.store.requests.slice(requests).map((r) => r.operationName);
    expect(operations[0]).toBe('ReportFulfillmentOrderProgress');
    expect(operations).not.toContain('ReadFulfillmentOrdersById');
    expect(operations).toContain('ReadFulfillmentState');
    // Nothing could be reported, so the status metafields say it.
    expect(metafield(s.store, id, 'status')).toBe('processing');
  });

  it('fulfils nothing that staff moved to a fulfillment service after registration', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s);
    const [fo] = s.store.order(id)!.fulfillmentOrders;
    await s.store.moveFulfillmentOrder(fo!.id, "Another app's warehouse");

    await ship(s, tick, id);

    expect(live(s, id)).toEqual([]);
    expect((await s.parts.tracking.get(id))?.unfulfillableNumber).toBe(`TN${id}`);
  });

  it('adds the tracking to staff’s fulfillment made in the same second as the send, whatever the worker’s clock', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s);
    // A worker whose clock runs ahead wrote its own times of the send.
    const ahead = new Date(Date.now() + 5_000).toISOString();
    await s.redis.hset(`${s.prefix}:order:${id}`, 'sentAt', ahead, 'registeredAt', ahead);
    await s.store.fulfil(id, {}, { sendWebhook: false });

    await ship(s, tick, id);

    const [fulfillment, ...more] = live(s, id);
    expect(more).toEqual([]);
    expect(fulfillment!.trackingInfo.map((t) => t.number)).toEqual([`TN${id}`]);
  });

  it('finds a sent line after the fifth of a fulfillment staff made without tracking', async () => {
    const { s, tick } = await stack();
    const books = Array.from({ length: 5 }, (_, i) => ({
      title: `E-book ${i + 1}`,
      requiresShipping: false,
    }));
    const id = await registeredOrder(s, { lineItems: [...books, { title: 'Mug' }] });
    await s.store.fulfil(id, {}, { sendWebhook: false });
    const [staff] = live(s, id);
    expect(staff!.lineItems).toHaveLength(6);

    await ship(s, tick, id);

    const [fulfillment, ...more] = live(s, id);
    expect(more).toEqual([]);
    expect(fulfillment!.trackingInfo.map((t) => t.number)).toEqual([`TN${id}`]);
  });

  it('updates the tracking when the provider re-labels the parcel, never fulfilling twice', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s);
    await ship(s, tick, id, 'OLD-1');

    tick();
    s.sandbox.setTracking(id, { trackingNumber: 'NEW-2' });
    await runSync(s);
    await settled(s);

    const [fulfillment, ...more] = live(s, id);
    expect(more).toEqual([]);
    expect(fulfillment!.trackingInfo.map((t) => t.number)).toEqual(['NEW-2']);
    expect(emails(s, id)).toEqual(['shipping_confirmation', 'shipping_update']);
    // The fulfillment carries the number: no status metafields.
    expect(metafield(s.store, id, 'tracking_number')).toBeUndefined();
  });

  describe('a mug of 3, 2 at the shop location sent and 1 moved to a shop not collected from, and a vase sent from Aarhus', () => {
    async function splitOrder(held = 'Aarhus warehouse') {
      const { s, tick } = await stack({
        shipment: { collectFromLocations: ['Shop location', 'Aarhus warehouse'] },
      });
      const id = await registeredOrder(
        s,
        {
          lineItems: [
            { title: 'Mug', quantity: 3 },
            { title: 'Vase', location: 'Aarhus warehouse' },
          ],
        },
        async (id) => {
          const shop = s.store.order(id)!.fulfillmentOrders[0]!;
          await s.store.moveFulfillmentOrder(shop.id, 'Copenhagen shop', [
            { title: 'Mug', quantity: 1 },
          ]);
        },
      );
      const atLocation = (name: string) => {
        const location = s.store.locations().find((l) => l.name === name)!;
        return s.store.order(id)!.fulfillmentOrders.find((fo) => fo.locationId === location.id)!;
      };
      await s.store.holdFulfillmentOrder(atLocation(held).id, {}, { sendWebhook: false });
      return { s, tick, id, atLocation };
    }

    const unitsAt = (s: ShipmentStack, id: string) =>
      live(s, id).map((f) => ({
        location: s.store.locations().find((l) => l.id === f.locationId)!.name,
        units: f.lineItems.reduce((n, l) => n + l.quantity, 0),
      }));

    it('the vase put on hold: fulfils the 2 mugs sent, never the one at the shop, and waits for the vase', async () => {
      const { s, tick, id, atLocation } = await splitOrder();

      await ship(s, tick, id);

      expect(unitsAt(s, id)).toEqual([{ location: 'Shop location', units: 2 }]);
      expect(atLocation('Copenhagen shop').status).toBe('OPEN');
      expect(emails(s, id)).toEqual(['shipping_confirmation']);
      expect((await failedFulfilment(s, id)).failedReason).toMatch(/Vase is on hold/);
    });

    it('the vase put on hold and the answer for the shop location lost: neither fulfils it twice nor the shop’s mug', async () => {
      const { s, tick, id, atLocation } = await splitOrder();
      s.store.dropNextAnswers({ count: 1, operation: 'fulfillmentCreate' });
      retriesAtOnce(s);

      await ship(s, tick, id);
      await failedFulfilment(s, id);

      expect(unitsAt(s, id)).toEqual([{ location: 'Shop location', units: 2 }]);
      expect(atLocation('Copenhagen shop').status).toBe('OPEN');
    }, 40_000);

    it('the mugs sent put on hold: fulfils the vase, and not the shop’s mug in their place', async () => {
      const { s, tick, id, atLocation } = await splitOrder('Shop location');

      await ship(s, tick, id);

      expect(unitsAt(s, id)).toEqual([{ location: 'Aarhus warehouse', units: 1 }]);
      expect(atLocation('Copenhagen shop').status).toBe('OPEN');
      expect((await failedFulfilment(s, id)).failedReason).toMatch(/2 × Mug is on hold/);
    });
  });

  it.each(['refuse', 'fulfil-what-is-left'] as const)(
    'fulfils at Aarhus the mug staff moved there after the send, Shopify answering more than is left with %s',
    async (answer) => {
      const { s, tick } = await stack();
      s.store.setOverQuantityAnswer(answer);
      const id = await registeredOrder(s, { lineItems: [{ title: 'Mug', quantity: 3 }] });
      const [fo] = s.store.order(id)!.fulfillmentOrders;
      const moved = await s.store.moveFulfillmentOrder(fo!.id, 'Aarhus warehouse', [
        { title: 'Mug', quantity: 1 },
      ]);

      await ship(s, tick, id);

      const units = live(s, id).map((f) => ({
        at: f.locationId,
        units: f.lineItems.reduce((n, l) => n + l.quantity, 0),
        tracking: f.trackingInfo.map((t) => t.number),
      }));
      expect(units).toEqual([
        { at: fo!.locationId, units: 2, tracking: [`TN${id}`] },
        { at: moved.locationId, units: 1, tracking: [`TN${id}`] },
      ]);
      expect((await s.parts.tracking.get(id))?.fulfillmentIds?.split(',')).toHaveLength(2);
    },
  );

  it.each(['refuse', 'fulfil-what-is-left'] as const)(
    'makes no second fulfillment when Shopify’s answer to the first is lost, and reads before writing again (more than is left: %s)',
    async (answer) => {
      const { s, tick } = await stack();
      s.store.setOverQuantityAnswer(answer);
      // The e-book rides in the mug's fulfillment order, which stays open once the mug is fulfilled.
      const id = await registeredOrder(s, {
        lineItems: [{ title: 'Mug' }, { title: 'E-book', requiresShipping: false }],
      });
      s.store.dropNextAnswers({ count: 1, operation: 'fulfillmentCreate' });
      retriesAtOnce(s);
      const from = s.store.requests.length;

      tick();
      s.sandbox.advance(id, 'shipped');
      await runSync(s);
      await waitUntil(async () => (await s.parts.tracking.get(id))?.fulfilledNumber !== undefined, {
        what: 'the fulfilment to be recorded',
        timeoutMs: 30_000,
      });
      await settled(s);

      expect(live(s, id)).toHaveLength(1);
      expect(emails(s, id)).toEqual(['shipping_confirmation']);
      // The attempt was recorded as started: the retry reads the order first instead of sending
      // the units again and counting on Shopify to refuse them.
      const operations = s.store.requests.slice(from).map((r) => r.operationName ?? '');
      expect(operations.filter((op) => op.startsWith('CreateFulfillment'))).toHaveLength(1);
    },
    40_000,
  );

  describe('a prepaid subscription: one coffee box a month, the same line item at the same location, the first box sent', () => {
    const DAY = 24 * 3600_000;
    async function subscription() {
      const { s, tick } = await stack();
      const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
      const id = await registeredOrder(s, {
        lineItems: [{ title: 'Coffee box', quantity: 3 }],
        fulfillmentOrders: [{ location: 'Shop location', deliveries: [at(-1), at(30), at(60)] }],
      });
      const [sentBox, nextBox] = s.store.order(id)!.fulfillmentOrders;
      return { s, tick, id, sentBox: sentBox!.id, nextBox: nextBox!.id };
    }
    const box = (s: ShipmentStack, id: string, foId: string) =>
      s.store.order(id)!.fulfillmentOrders.find((fo) => fo.id === foId)!;

    it('is sent as the first box alone', async () => {
      const { s, id, sentBox, nextBox } = await subscription();
      expect((await s.parts.records.get(id))?.sentUnits).toMatch(/x1@/);
      expect(box(s, id, sentBox).status).toBe('OPEN');
      expect(box(s, id, nextBox).status).toBe('SCHEDULED');
    });

    it('the sent box fulfilled by staff without tracking, the next still scheduled: adds the tracking to theirs', async () => {
      const { s, tick, id, nextBox } = await subscription();
      await s.store.fulfil(id, {}, { sendWebhook: false });

      await ship(s, tick, id);

      const [fulfillment, ...more] = live(s, id);
      expect(more).toEqual([]);
      expect(fulfillment!.trackingInfo[0]?.number).toBe(`TN${id}`);
      expect(box(s, id, nextBox).status).toBe('SCHEDULED');
      expect(s.store.order(id)!.tags).not.toContain('shipment-not-fulfilled');
      expect(await s.queues.fulfilShipment.getFailed()).not.toContainEqual(
        expect.objectContaining({ data: expect.objectContaining({ reference: id }) }),
      );
    });

    it('the sent box put on hold and the next opened early: fulfils neither, and waits for the hold', async () => {
      const { s, tick, id, sentBox, nextBox } = await subscription();
      await s.store.holdFulfillmentOrder(sentBox, {}, { sendWebhook: false });
      await s.store.openEarly(nextBox);

      await ship(s, tick, id);

      const job = await failedFulfilment(s, id);
      expect(job.failedReason).toMatch(/1 × Coffee box is on hold/);
      expect(live(s, id)).toEqual([]);
      expect(emails(s, id)).toEqual([]);
      expect(box(s, id, nextBox)).toMatchObject({ status: 'OPEN' });

      await s.store.releaseHold(sentBox, { sendWebhook: false });
      await job.retry('failed');
      await waitForJob(s.queues.fulfilShipment, job.id!, 'completed');
      await settled(s);
      const [fulfillment, ...more] = live(s, id);
      expect(more).toEqual([]);
      expect(fulfillment!.fulfillmentOrderIds).toEqual([sentBox]);
      expect(box(s, id, nextBox).status).toBe('OPEN');
    });

    it('the sent box fulfilled by staff without tracking and the next opened early: adds the tracking to theirs, never fulfils the next', async () => {
      const { s, tick, id, nextBox } = await subscription();
      await s.store.fulfil(id, {}, { sendWebhook: false });
      await s.store.openEarly(nextBox);

      await ship(s, tick, id);

      const [fulfillment, ...more] = live(s, id);
      expect(more).toEqual([]);
      expect(fulfillment!.createdBy).toBe('staff');
      expect(fulfillment!.trackingInfo[0]?.number).toBe(`TN${id}`);
      expect(box(s, id, nextBox)).toMatchObject({ status: 'OPEN' });
      expect(box(s, id, nextBox).lineItems[0]!.remainingQuantity).toBe(1);
    });

    it('the sent box and then the next fulfilled by staff without tracking: the tracking goes on the sent box’s alone', async () => {
      const { s, tick, id, sentBox, nextBox } = await subscription();
      await s.store.fulfil(id, {}, { sendWebhook: false });
      await s.store.openEarly(nextBox);
      await s.store.fulfil(id, {}, { sendWebhook: false });

      await ship(s, tick, id);

      const tracked = (foId: string) =>
        live(s, id)
          .filter((f) => f.fulfillmentOrderIds.includes(foId))
          .flatMap((f) => f.trackingInfo.map((t) => t.number));
      expect(tracked(sentBox)).toEqual([`TN${id}`]);
      expect(tracked(nextBox)).toEqual([]);
    });

    it('a box opened early before a send kept without its lines (an older record): fulfils it', async () => {
      const { s, tick } = await stack();
      const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
      const id = await registeredOrder(
        s,
        {
          lineItems: [{ title: 'Coffee box', quantity: 2 }],
          fulfillmentOrders: [{ location: 'Shop location', deliveries: [at(30), at(60)] }],
        },
        async (orderId) => {
          await s.store.openEarly(s.store.order(orderId)!.fulfillmentOrders[0]!.id);
        },
      );
      const sentBox = s.store.order(id)!.fulfillmentOrders[0]!.id;
      const key = `${s.prefix}:order:${id}`;
      const kept = await s.redis.hget(key, 'sentUnits');
      expect(kept).toMatch(/^\d+x1@/);
      await s.redis.hset(key, 'sentUnits', kept!.split('@')[0]!);

      await ship(s, tick, id);

      const [fulfillment, ...more] = live(s, id);
      expect(more).toEqual([]);
      expect(fulfillment!.fulfillmentOrderIds).toEqual([sentBox]);
      expect(fulfillment!.trackingInfo[0]?.number).toBe(`TN${id}`);
    });

    it('the next box opened early and fulfilled by staff without tracking, the first attempt failing: fulfils the sent box, and leaves staff’s fulfillment of the next alone', async () => {
      const { s, tick, id, sentBox, nextBox } = await subscription();
      await s.store.holdFulfillmentOrder(sentBox, {}, { sendWebhook: false });
      await s.store.openEarly(nextBox);
      await s.store.fulfil(id, {}, { sendWebhook: false });
      await s.store.releaseHold(sentBox, { sendWebhook: false });
      s.store.serverErrorNext({ count: 1, operation: 'fulfillmentCreate' });
      retriesAtOnce(s);

      await ship(s, tick, id);
      await waitUntil(async () => (await s.parts.tracking.get(id))?.fulfilledNumber !== undefined, {
        what: 'the fulfilment to be recorded',
        timeoutMs: 30_000,
      });
      await settled(s);

      const staff = live(s, id).filter((f) => f.createdBy === 'staff');
      const ours = live(s, id).filter((f) => f.createdBy === 'app');
      expect(staff).toMatchObject([{ fulfillmentOrderIds: [nextBox], trackingInfo: [] }]);
      expect(ours).toMatchObject([{ fulfillmentOrderIds: [sentBox] }]);
      expect(ours[0]!.trackingInfo.map((t) => t.number)).toEqual([`TN${id}`]);
    }, 40_000);

    it('the next box opened early after the send: the progress report reading the order after a failed report leaves it alone', async () => {
      const { s, tick, id, sentBox, nextBox } = await subscription();
      await s.store.openEarly(nextBox);
      s.store.serverErrorNext({ count: 1, operation: 'ReportFulfillmentOrderProgress' });
      retriesAtOnce(s);

      tick();
      s.sandbox.advance(id, 'processing');
      await runSync(s);
      await waitUntil(() => box(s, id, sentBox).status === 'IN_PROGRESS', {
        what: 'the sent box reported in progress',
        timeoutMs: 30_000,
      });
      await settled(s);

      expect(box(s, id, nextBox)).toMatchObject({ status: 'OPEN', progressReports: [] });
    }, 40_000);
  });

  it('reports progress while the provider prepares the shipment', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s);

    await startProcessing(s, tick, id);

    const [fo] = s.store.order(id)!.fulfillmentOrders;
    expect(fo?.status).toBe('IN_PROGRESS');
    expect(fo?.progressReports).toHaveLength(1);
    // The report shows it: no status metafields.
    expect(metafield(s.store, id, 'status')).toBeUndefined();
  });

  it('reports no progress on a fulfillment order staff moved whole to a location not collected from, so staff can move it back', async () => {
    const { s, tick } = await stack({ shipment: { collectFromLocations: ['Shop location'] } });
    const id = await registeredOrder(s);
    const [fo] = s.store.order(id)!.fulfillmentOrders;
    await s.store.moveFulfillmentOrder(fo!.id, 'Copenhagen shop');

    await startProcessing(s, tick, id);

    const [now] = s.store.order(id)!.fulfillmentOrders;
    expect(now).toMatchObject({ id: fo!.id, status: 'OPEN', progressReports: [] });
    expect(metafield(s.store, id, 'status')).toBe('processing');
    const back = await s.store.moveFulfillmentOrder(fo!.id, 'Shop location');
    expect(back.locationId).toBe(fo!.locationId);
  });

  it('reports progress where the units were sent from, by the settings of the send, after COLLECT_FROM_LOCATIONS changed', async () => {
    const { s, tick } = await stack({ shipment: { collectFromLocations: ['Shop location'] } });
    const id = await registeredOrder(s);
    s.config.shipment.collectFromLocations = ['Aarhus warehouse'];

    await startProcessing(s, tick, id);

    const [fo] = s.store.order(id)!.fulfillmentOrders;
    expect(fo).toMatchObject({ status: 'IN_PROGRESS', progressReports: [expect.anything()] });
  });

  it('reports progress by the settings of the send when it reads the order after a failed read, never at a location collected from only since', async () => {
    const { s, tick } = await stack({ shipment: { collectFromLocations: ['Shop location'] } });
    const id = await registeredOrder(s, {
      lineItems: [{ title: 'Mug' }, { title: 'Vase', location: 'Aarhus warehouse' }],
    });
    s.config.shipment.collectFromLocations = ['Shop location', 'Aarhus warehouse'];
    s.store.serverErrorNext({ count: 1, operation: 'ReadFulfillmentOrdersById' });
    retriesAtOnce(s);

    tick();
    s.sandbox.advance(id, 'processing');
    await runSync(s);
    const at = (i: number) => s.store.order(id)!.fulfillmentOrders[i]!;
    await waitUntil(() => at(0).status === 'IN_PROGRESS', {
      what: 'the shop location reported in progress',
      timeoutMs: 30_000,
    });
    await settled(s);

    expect(at(1)).toMatchObject({ status: 'OPEN', progressReports: [] });
  }, 40_000);

  it('tags and notes an order whose shipment the provider cancelled, and leaves the order be', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s);

    tick();
    s.sandbox.cancel(id);
    await runSync(s);
    await settled(s);

    const order = s.store.order(id)!;
    expect(order.tags).toContain('shipment-cancelled-by-provider');
    expect(order.note).toMatch(/The provider cancelled shipment/);
    expect(order.cancelledAt).toBeNull();
    // The tag and note show it: no status metafields.
    expect(metafield(s.store, id, 'status')).toBeUndefined();
  });

  it('shows an unknown status with its label, as in progress, and goes on from it', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s);

    tick();
    s.sandbox.setUndocumentedStatus(id, 'held_at_customs', 'Held at customs');
    await runSync(s);
    await settled(s);
    expect(metafield(s.store, id, 'status')).toBe('held_at_customs');
    expect(metafield(s.store, id, 'status_label')).toBe('Held at customs');
    expect(live(s, id)).toEqual([]);

    await ship(s, tick, id);
    expect(live(s, id)).toHaveLength(1);
    expect(metafield(s.store, id, 'status')).toBe('shipped');
  });

  it('adds no second delivered event when Shopify made it but refused the status metafields sent with it', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s);
    tick();
    s.sandbox.setUndocumentedStatus(id, 'held_at_customs', 'Held at customs');
    await runSync(s);
    await settled(s);
    await ship(s, tick, id);
    expect(metafield(s.store, id, 'status')).toBe('shipped');

    // A provider label Shopify refuses in a single-line text metafield.
    await s.parts.tracking.learnLabel('delivered', 'Delivered\nat the door');
    tick(3_600_000);
    s.sandbox.advance(id, 'delivered');
    await runSync(s);
    await settled(s);
    const failed = await waitUntil(
      async () =>
        (await s.queues.recordDelivery.getFailed()).find((job) => job.data.reference === id),
      { what: `a failed record-delivery job of ${id}` },
    );
    const events = () => live(s, id).flatMap((f) => f.events.map((e) => e.status));
    expect(events()).toEqual(['DELIVERED']);

    // Replayed, as the sync replays a failed write an hour on: the event is not made again.
    await retryFailedJob(failed);
    await settled(s);
    expect(events()).toEqual(['DELIVERED']);
    expect((await s.parts.tracking.get(id))?.deliveryRecordedAt).toBeDefined();
  });

  it('reports progress once when Shopify made the report but refused the status metafields sent with it', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s);
    tick();
    s.sandbox.setUndocumentedStatus(id, 'held_at_customs', 'Held at customs');
    await runSync(s);
    await settled(s);
    expect(metafield(s.store, id, 'status')).toBe('held_at_customs');

    // A provider label Shopify refuses in a single-line text metafield.
    await s.parts.tracking.learnLabel('processing', 'Being\nprepared');
    await startProcessing(s, tick, id);
    const failed = await waitUntil(
      async () =>
        (await s.queues.reportShipmentProgress.getFailed()).find(
          (job) => job.data.reference === id,
        ),
      { what: `a failed report-shipment-progress job of ${id}` },
    );
    const reports = () =>
      s.store.mutations.filter(
        (m) => m.type === 'fulfillmentOrderReportProgress' && m.orderId.endsWith(id),
      );
    expect(reports()).toHaveLength(1);

    // Replayed, as the sync replays a failed write an hour on: nothing is reported again.
    await retryFailedJob(failed);
    await settled(s);
    expect(reports()).toHaveLength(1);
    expect((await s.parts.tracking.get(id))?.progressReportedAt).toBeDefined();
  });

  it('never moves a status back when an older report comes late', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s);
    await ship(s, tick, id);
    tick();
    s.sandbox.advance(id, 'delivered');
    await runSync(s);
    await settled(s);
    // The DELIVERED event shows it: no status metafields.
    expect(metafield(s.store, id, 'status')).toBeUndefined();
    expect(live(s, id)[0]!.displayStatus).toBe('DELIVERED');

    // A stale page: the provider's list as it was while the parcel was in transit.
    const partner = s.partner;
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();
    await s.stopWorkers();
    s.startWorkers({
      ports: {
        partner: Object.assign(Object.create(partner) as PartnerClient, {
          async listShipments(...args: Parameters<PartnerClient['listShipments']>) {
            const page = await partner.listShipments(...args);
            return {
              ...page,
              data: page.data.map((item) =>
                item.reference === id
                  ? { ...item, status: 'shipped', updated_at: anHourAgo }
                  : item,
              ),
            };
          },
        }),
      },
    });
    const writes = s.store.mutations.length;
    await runSync(s);
    await settled(s);

    expect(live(s, id)[0]!.displayStatus).toBe('DELIVERED');
    expect(shopifyWrites(s, writes)).toEqual([]);
  });
});

describe("the order's write lock when a fulfilment is cut off", () => {
  /** BullMQ finds a job whose worker died stalled within seconds (its default is 30 s). */
  const SHORT_JOB_LOCK = { durationMs: 2_000, stalledIntervalMs: 1_000 };
  const fulfilJobId = (id: string, trackingNumber: string) =>
    updateJobId('fulfil', { reference: id, version: numberKey(trackingNumber) });
  const creates = (s: ShipmentStack) =>
    s.store.mutations.filter((m) => m.type === 'fulfillmentCreate').length;

  it('is taken over at once by the same job run again, and the cut-off run writes nothing after', async () => {
    const time = providerClock();
    const s = await start({ workers: false, sandbox: { clock: time.clock } });
    // Every worker with the short lock: BullMQ's check for stalled jobs runs at most once per
    // interval, whichever worker ran it last.
    s.startWorkers({ jobLock: SHORT_JOB_LOCK });
    const id = await registeredOrder(s);
    await s.stopWorkers();
    // GIVEN a fulfil run that took the write lock and is about to fulfil, held there
    const hold = holdPoint();
    // What the cut-off run is told when it asks to keep the lock.
    const cutOffKeeps: boolean[] = [];
    const tracking: ShipmentTracking = Object.create(s.parts.tracking);
    tracking.saveShopifySide = async (reference, side) => {
      if (side.fulfilStartedAt) await hold.stop();
      return s.parts.tracking.saveShopifySide(reference, side);
    };
    tracking.keepWriteLock = async (...args) => {
      const kept = await s.parts.tracking.keepWriteLock(...args);
      cutOffKeeps.push(kept);
      return kept;
    };
    s.startWorkers({ ports: { tracking }, jobLock: SHORT_JOB_LOCK });
    time.tick();
    s.sandbox.advance(id, 'shipped', { carrier: 'PostNord', trackingNumber: `TN${id}` });
    await runSync(s);
    await hold.reached;
    const jobId = fulfilJobId(id, `TN${id}`);

    // WHEN its worker dies (the job's lock is no longer renewed) and another worker runs
    await s.stopWorkers({ abandon: true });
    s.startWorkers({ jobLock: SHORT_JOB_LOCK });

    // THEN BullMQ runs the job again, and it fulfils without waiting for the lock's 2 minutes
    const job = await waitForJob(s.queues.fulfilShipment, jobId, 'completed', {
      timeoutMs: 30_000,
    });
    expect(job.returnvalue).toEqual({ outcome: 'fulfilled' });
    expect(job.stalledCounter).toBe(1);
    expect(live(s, id)).toHaveLength(1);

    // AND the cut-off run, still alive, finds the lock gone before its write, and stops there
    hold.release();
    await waitUntil(() => cutOffKeeps.length > 0, { what: 'the cut-off run to ask for the lock' });
    expect(cutOffKeeps).toEqual([false]);
    expect(creates(s)).toBe(1);
    expect(live(s, id)).toHaveLength(1);
    expect(emails(s, id)).toEqual(['shipping_confirmation']);
  }, 40_000);

  it('still keeps a fulfilment of the order by another job waiting until that one is done', async () => {
    const { s, tick } = await stack();
    const id = await registeredOrder(s);
    // GIVEN another fulfil job of the order (an older tracking number) holding the write lock
    const other = `${fulfilJobId(id, 'OLD-1')}/its-token`;
    expect(await s.parts.tracking.holdWriteLock(id, other, 120_000)).toBe(true);

    tick();
    s.sandbox.advance(id, 'shipped', { carrier: 'PostNord', trackingNumber: `TN${id}` });
    await runSync(s);

    // THEN this one fails its attempt, writing nothing, and waits its turn (a retry)
    const jobId = fulfilJobId(id, `TN${id}`);
    const waiting = await waitUntil(
      async () => {
        const job = await s.queues.fulfilShipment.getJob(jobId);
        return job && job.attemptsMade > 0 ? job : undefined;
      },
      { what: 'the fulfil job to fail its first attempt', timeoutMs: 15_000 },
    );
    expect(waiting.failedReason).toMatch(/Another fulfilment of order \d+ is running/);
    expect(live(s, id)).toEqual([]);

    // WHEN the other job is done, the next attempt fulfils
    await s.parts.tracking.releaseWriteLock(id, other);
    await waitForJob(s.queues.fulfilShipment, jobId, 'completed', { timeoutMs: 30_000 });
    expect(live(s, id)).toHaveLength(1);
  }, 40_000);
});
