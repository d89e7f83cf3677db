import type { Job, Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import {
  FIXTURE,
  metafield,
  type ShipmentStack,
  type ShipmentStackOptions,
  shipmentStacks,
  waitForJob,
  waitUntil,
} from '../helpers/shipment-stack.js';
import {
  partnerCalls,
  providerClock,
  runSync,
  settled,
  shopifyWrites,
} from '../helpers/status-sync.js';

const start = shipmentStacks();

const BRING_URL = 'https://tracking.bring.com/tracking/{number}';

async function stackWithClock(options: ShipmentStackOptions = {}) {
  const time = providerClock();
  const s = await start({
    ...options,
    sandbox: { ...options.sandbox, clock: time.clock },
    sync: { tracking: { companies: {}, urlTemplates: { Bring: BRING_URL } }, ...options.sync },
  });
  return { s, tick: time.tick };
}

/** Registers a fixture order through the real create-shipment job. */
async function register(s: ShipmentStack, id: string = FIXTURE.paidCopenhagen) {
  await s.parts.enqueueOrder(id, 'orders/paid');
  await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');
  await settled(s);
}

/** The one job of `queue` waiting out its backoff after a failed attempt. */
async function waitUntilDelayed(queue: Queue) {
  let delayed: Job[] = [];
  await waitUntil(
    async () => {
      delayed = await queue.getDelayed();
      return delayed.length === 1;
    },
    { what: 'the job to wait for its retry' },
  );
  return delayed[0]!;
}

const liveFulfillments = (s: ShipmentStack, id: string) =>
  s.store.order(id)!.fulfillments.filter((f) => f.status === 'SUCCESS');

describe('the status sync writes what the provider did back to Shopify', () => {
  it('fulfils a shipped order once, with tracking, and marks it delivered at the provider’s time', async () => {
    const { s, tick } = await stackWithClock();
    const id = FIXTURE.paidCopenhagen;
    await register(s, id);

    tick();
    s.sandbox.advance(id, 'shipped', { carrier: 'Bring', trackingNumber: '70701234567' });
    const since = Date.now();
    const firstWrites = s.store.mutations.length;
    const first = await runSync(s);
    await settled(s);

    expect(partnerCalls(s, since)).toEqual({ list: 1, detail: 1, create: 0 });
    expect(first).toMatchObject({ listRequests: 1, detailRequests: 1 });
    const [fulfillment, ...more] = liveFulfillments(s, id);
    expect(more).toEqual([]);
    expect(fulfillment!.trackingInfo).toEqual([
      {
        company: 'Bring',
        number: '70701234567',
        url: 'https://tracking.bring.com/tracking/70701234567',
      },
    ]);
    expect(s.store.notifications.filter((n) => n.orderId === id)).toHaveLength(1);
    // The fulfillment with its tracking shows it shipped: no status metafields.
    expect(metafield(s.store, id, 'status')).toBeUndefined();
    expect(metafield(s.store, id, 'tracking_number')).toBeUndefined();
    expect(shopifyWrites(s, firstWrites)).toEqual(['fulfillmentCreate']);

    // Nothing changed: the same list page, no detail read, no Shopify write.
    const quiet = Date.now();
    const quietWrites = s.store.mutations.length;
    await runSync(s);
    await settled(s);
    expect(partnerCalls(s, quiet)).toEqual({ list: 1, detail: 0, create: 0 });
    expect(shopifyWrites(s, quietWrites)).toEqual([]);

    tick(3_600_000);
    const delivered = s.sandbox.advance(id, 'delivered');
    const later = Date.now();
    const requestsBefore = s.store.requests.length;
    await runSync(s);
    await settled(s);
    // One Shopify request: the event on the fulfillment the fulfilment recorded, unread.

    expect(s.store.requests.slice(requestsBefore).map((r) => r.operationName)).toEqual([
      'CreateFulfillmentEvent',
    ]);
    // The number is known: delivery comes from the list alone.
    expect(partnerCalls(s, later)).toEqual({ list: 1, detail: 0, create: 0 });
    const after = liveFulfillments(s, id);
    expect(after).toHaveLength(1);
    expect(after[0]!.displayStatus).toBe('DELIVERED');
    expect(after[0]!.events.map((e) => [e.status, Date.parse(e.happenedAt)])).toEqual([
      ['DELIVERED', Date.parse(delivered.updated_at)],
    ]);
    // The DELIVERED event shows it: no status metafields.
    expect(metafield(s.store, id, 'status')).toBeUndefined();
  });

  it('adds no second delivered event when the first one’s answer was lost', async () => {
    const { s, tick } = await stackWithClock();
    const id = FIXTURE.paidCopenhagen;
    await register(s, id);
    tick();
    s.sandbox.advance(id, 'shipped', { carrier: 'Bring', trackingNumber: '70701234567' });
    await runSync(s);
    await settled(s);

    tick(3_600_000);
    s.sandbox.advance(id, 'delivered');
    // Shopify adds the event and sets the status, and the answer never arrives.
    s.store.dropNextAnswers({ count: 1, operation: 'fulfillmentEventCreate' });
    await runSync(s);
    const queue = s.queues.recordDelivery;
    const job = await waitUntilDelayed(queue);
    await job.promote();
    await settled(s);

    const [fulfillment, ...more] = liveFulfillments(s, id);
    expect(more).toEqual([]);
    // The retry read the order, found the fulfillment delivered, and left it alone.
    expect(fulfillment!.events.map((e) => e.status)).toEqual(['DELIVERED']);
    expect(metafield(s.store, id, 'status')).toBeUndefined();
    expect((await queue.getJob(job.id!))?.returnvalue).toEqual({ outcome: 'already-recorded' });
  });

  it('costs ceil(M/200) list requests a cycle, reads in detail only the newly shipped, and adopts what it has no record of', async () => {
    const { s, tick } = await stackWithClock();
    const M = 450;
    const ids = Array.from({ length: M }, (_, i) => String(7_000_000 + i));
    const placed = new Date(Date.now() - 4 * 24 * 3600_000).toISOString();
    for (const id of ids)
      await s.store.createOrder({ id, createdAt: placed }, { sendWebhook: false });
    // Registered before the connector was installed: the connector has no record of them.
    s.sandbox.seedShipments({
      references: ids,
      createdFrom: new Date(Date.now() - 3 * 24 * 3600_000),
      createdTo: new Date(Date.now() - 60_000),
    });

    const since = Date.now();
    const first = await runSync(s);
    expect(partnerCalls(s, since)).toEqual({ list: Math.ceil(M / 200), detail: 0, create: 0 });
    expect(first).toMatchObject({ adopted: M, foreign: 0 });
    await settled(s, 60_000);
    expect(ids.every((id) => metafield(s.store, id, 'status') === 'pending')).toBe(true);

    const quiet = Date.now();
    const quietWrites = s.store.mutations.length;
    const quietRequests = s.store.requests.length;
    await runSync(s);
    await settled(s);
    expect(partnerCalls(s, quiet)).toEqual({ list: Math.ceil(M / 200), detail: 0, create: 0 });
    expect(shopifyWrites(s, quietWrites)).toEqual([]);
    expect(s.store.requests.length).toBe(quietRequests);

    tick();
    const shipped = ids.slice(100, 107);
    for (const id of shipped) s.sandbox.advance(id, 'shipped');
    const third = Date.now();
    await runSync(s);
    await settled(s);
    expect(partnerCalls(s, third)).toEqual({
      list: Math.ceil(M / 200),
      detail: shipped.length,
      create: 0,
    });
    for (const id of shipped) expect(liveFulfillments(s, id)).toHaveLength(1);
    expect(ids.filter((id) => liveFulfillments(s, id).length > 0).sort()).toEqual(shipped);
  }, 120_000);

  it('misses no shipment created while it pages (the list is newest first)', async () => {
    const { s } = await stackWithClock({ workers: false });
    const ids = Array.from({ length: 401 }, (_, i) => String(7_100_000 + i));
    const lateIds = ['7199001', '7199002', '7199003'];
    for (const id of [...ids, ...lateIds])
      await s.store.createOrder({ id }, { sendWebhook: false });
    s.sandbox.seedShipments({
      references: ids,
      createdFrom: new Date(Date.now() - 24 * 3600_000),
      createdTo: new Date(Date.now() - 60_000),
    });

    // A new shipment is created at the provider before each page after the first.
    let page = 0;
    const partner = s.partner;
    s.startWorkers({
      ports: {
        partner: Object.assign(Object.create(partner), {
          async listShipments(...args: Parameters<typeof partner.listShipments>) {
            page += 1;
            if (page > 1 && page <= 1 + lateIds.length) {
              s.sandbox.seedShipments({ references: [lateIds[page - 2]!] });
            }
            return partner.listShipments(...args);
          },
        }),
      },
    });

    const first = await runSync(s);
    // 401 at the start fill 3 pages; each new one pushes the later pages back by one.
    expect(first.listRequests).toBe(3);
    const followed = async (id: string) => (await s.parts.tracking.get(id)) !== null;
    for (const id of ids) expect(await followed(id), id).toBe(true);

    await runSync(s);
    for (const id of lateIds) expect(await followed(id), id).toBe(true);
  }, 60_000);

  it('leaves alone a listed shipment that is no order of this store', async () => {
    const { s } = await stackWithClock();
    s.sandbox.seedShipments({ references: ['9999999901', 'legacy-ref-1'] });

    const summary = await runSync(s);
    await settled(s);

    expect(summary).toMatchObject({ adopted: 0, foreign: 2 });
    expect(await s.parts.tracking.get('9999999901')).toBeNull();
    expect((await s.parts.tracking.foreignReferences()).sort()).toEqual([
      '9999999901',
      'legacy-ref-1',
    ]);
    // Known now: the next cycle asks Shopify nothing about them.
    const before = s.store.requests.length;
    await runSync(s);
    expect(s.store.requests.length).toBe(before);
  });
});
