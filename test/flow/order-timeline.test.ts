import { describe, expect, it } from 'vitest';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import { formatOrderStatus } from '../../src/cli/status-format.js';
import { readStoredOrderStatus } from '../../src/compose/order-status.js';
import type { TimelineEntry } from '../../src/compose/order-timeline.js';
import { timelineKey } from '../../src/records/order-timeline.js';
import {
  FIXTURE,
  type ShipmentStack,
  shipmentStacks,
  shipmentsWithReference,
  waitForJob,
  waitUntil,
} from '../helpers/shipment-stack.js';
import { providerClock, runSync, settled } from '../helpers/status-sync.js';

const start = shipmentStacks();

async function stackWithClock() {
  const time = providerClock();
  const s = await start({
    sandbox: { clock: time.clock },
    sync: { tracking: { companies: {}, urlTemplates: {} } },
  });
  return { s, tick: time.tick };
}

const of = <K extends TimelineEntry['kind']>(timeline: TimelineEntry[], kind: K) =>
  timeline.filter((e): e is Extract<TimelineEntry, { kind: K }> => e.kind === kind);

/** The provider requests the sandbox answered (one order per test: all of them are its). */
function sandboxRequests(s: ShipmentStack) {
  return s.sandbox.requests
    .filter((r) => r.method === 'POST' || /\/shipments\/\d+$/.test(r.path))
    .map(
      (r) =>
        `${r.method} ${r.path.endsWith('/shipments') ? '/shipments' : '/shipments/{reference}'} ${r.status}`,
    );
}

/** The statuses the provider's shipment went through, oldest first. */
function providerHistory(s: ShipmentStack, id: string): string[] {
  const [shipment] = shipmentsWithReference(s.sandbox, id);
  return [...shipment!.history]
    .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime())
    .map((h) => h.status);
}

const seenStatuses = (timeline: TimelineEntry[]) =>
  of(timeline, 'provider-status').map((e) => e.status);

/** Whether `part` appears in `whole` in the same order (a sync sees some steps, not all). */
function inOrderWithin(part: string[], whole: string[]): boolean {
  let at = 0;
  for (const item of whole) if (item === part[at]) at += 1;
  return at === part.length;
}

/** Shipping and delivering at the provider, each seen by a sync cycle. */
async function shipAndDeliver(s: ShipmentStack, tick: (ms?: number) => void, id: string) {
  tick();
  s.sandbox.advance(id, 'shipped', { carrier: 'Bring', trackingNumber: '70701234567' });
  await runSync(s);
  await settled(s);
  tick(3_600_000);
  s.sandbox.advance(id, 'delivered');
  await runSync(s);
  await settled(s);
}

/** The timeline, once the provider requests noted in the background are in. */
async function timelineWith(s: ShipmentStack, id: string, providerRequests: number) {
  return waitUntil(
    async () => {
      const status = await readStoredOrderStatus(s.redis, s.prefix, id);
      return of(status.timeline, 'provider-request').length >= providerRequests ? status : null;
    },
    { what: 'the provider requests on the timeline' },
  );
}

describe("an order's timeline", () => {
  it('tells the whole story in time order, each line true of Shopify, the provider and BullMQ', async () => {
    const { s, tick } = await stackWithClock();
    const id = FIXTURE.paidCopenhagen;
    await s.parts.acceptWebhook(
      { orderId: id, source: 'orders/create', cancelled: false },
      { id: 'd-1', bodyHash: 'body-1' },
    );
    await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');
    await settled(s);
    await shipAndDeliver(s, tick, id);

    const expectedRequests = sandboxRequests(s);
    const status = await timelineWith(s, id, expectedRequests.length);
    const timeline = status.timeline;

    // In time order.
    const times = timeline.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // The webhook that brought it in.
    expect(of(timeline, 'event').map((e) => e.source)).toEqual(['orders/create']);
    // Each provider request, as the provider saw it.
    expect(
      of(timeline, 'provider-request').map((e) => `${e.method} ${e.path} ${e.status}`),
    ).toEqual(expectedRequests);
    expect(expectedRequests[0]).toBe('POST /shipments 201');
    // The provider's status changes as the connector learnt them, in its history's order.
    expect(seenStatuses(timeline)).toEqual(['pending', 'shipped', 'delivered']);
    expect(inOrderWithin(seenStatuses(timeline), providerHistory(s, id))).toBe(true);
    // Every Shopify write, against what the store applied.
    const writes = s.store.mutations.filter((m) => m.orderId === id).map((m) => m.type);
    expect(writes.filter((t) => t === 'fulfillmentCreate')).toHaveLength(1);
    expect(writes.filter((t) => t === 'fulfillmentEventCreate')).toHaveLength(1);
    // The status metafields ride in the fulfilment's and the delivered event's requests.
    expect(of(timeline, 'shopify-write').map((e) => e.write)).toEqual([
      'order marks: registered',
      'fulfil: fulfilled',
      'delivery: recorded',
    ]);
    // Every job BullMQ keeps for it, queued and run, with its outcome.
    const runs = of(timeline, 'job-run');
    expect(runs.map((r) => `${r.queue}/${r.jobId} ${r.state}`).sort()).toEqual(
      status.jobs.map((j) => `${j.queue}/${j.id} ${j.state}`).sort(),
    );
    expect(runs.find((r) => r.queue === 'create-shipment')).toMatchObject({
      state: 'completed',
      outcome: 'registered',
      attempts: 1,
    });
    expect(of(timeline, 'job-queued')).toHaveLength(status.jobs.length);
    // Ids and order names only: nothing of the customer.
    const order = s.store.order(id)!;
    const text = JSON.stringify(timeline);
    for (const personal of [order.email, order.phone, order.shippingAddress?.address1]) {
      if (personal) expect(text).not.toContain(personal);
    }
    // What the timeline stores of its own, for this whole story.
    const bytes = Number(await s.redis.memory('USAGE', timelineKey(s.prefix, id)));
    expect(bytes).toBeLessThan(1024);

    const shown = formatOrderStatus(status);
    expect(shown).toContain('webhook orders/create');
    expect(shown).toContain('provider: POST /shipments → 201');
    expect(shown).toContain('Shopify: fulfil: fulfilled');
  });
});

describe('an order cancelled in Shopify after its shipment was registered', () => {
  it('is never said to be fulfilled or delivered in Shopify when the provider ships it anyway', async () => {
    const { s, tick } = await stackWithClock();
    const id = FIXTURE.paidCopenhagen;
    await s.parts.acceptOrderEvent({ orderId: id, source: 'orders/paid', cancelled: false });
    await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');
    await settled(s);
    s.store.updateOrder(id, { cancel: true });
    const cancelled = { orderId: id, source: 'orders/cancelled', cancelled: true };
    expect(await s.parts.acceptOrderEvent(cancelled)).toBe('flagged_cancelled');
    await settled(s);
    await shipAndDeliver(s, tick, id);

    // Shopify has no fulfillment, and the record does not claim one.
    expect(s.store.order(id)!.fulfillments).toEqual([]);
    const shipment = (await s.parts.tracking.get(id))!;
    expect(shipment.stage).toBe('delivered');
    expect(shipment.fulfilledNumber).toBeUndefined();
    expect(shipment.unfulfillableNumber).toBe('70701234567');
    expect(shipment.deliveryRecordedAt).toBeUndefined();
    expect(await s.queues.recordDelivery.getJobCounts()).toMatchObject({ completed: 0, failed: 0 });

    const status = await timelineWith(s, id, sandboxRequests(s).length);
    const shown = formatOrderStatus(status);
    expect(shown).not.toContain('fulfilled with tracking number');
    expect(shown).not.toContain('delivered recorded');
    expect(shown).toContain('no fulfillment: nothing of the order was left to fulfil');
    expect(shown).toContain('Cancelled in Shopify after registration');

    const timeline = status.timeline;
    expect(of(timeline, 'event').map((e) => e.source)).toEqual(['orders/paid', 'orders/cancelled']);
    expect(seenStatuses(timeline)).toEqual(['pending', 'shipped', 'delivered']);
    expect(inOrderWithin(seenStatuses(timeline), providerHistory(s, id))).toBe(true);
    expect(of(timeline, 'shopify-write').map((e) => e.write)).toEqual([
      'order marks: registered',
      'order marks: cancelled after registration',
      'status: written',
    ]);
    expect(of(timeline, 'job-run').find((r) => r.queue === 'fulfil-shipment')).toMatchObject({
      state: 'completed',
      outcome: 'nothing-to-fulfil',
    });
  });
});
