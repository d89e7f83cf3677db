import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { EDIT_CHECK_DELAY_MS } from '../../jobs/check-order-edit/enqueue.js';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import { reconcileOrders } from '../../jobs/reconcile-orders/reconcile.js';
import { allJobs } from '../helpers/intake.js';
import { changeQuantity, editOrderInShopify } from '../helpers/order-edits.js';
import {
  createRequests,
  FIXTURE,
  type ShipmentStack,
  STORE_TOKEN,
  shipmentStacks,
  waitForJob,
  waitUntil,
} from '../helpers/shipment-stack.js';
import { providerClock, runSync, settled } from '../helpers/status-sync.js';
import { serveWebhooks } from '../helpers/webhook-route.js';

const start = shipmentStacks();
afterEach(() => {
  nock.cleanAll();
});

const ID = FIXTURE.paidCopenhagen;
const EDITED_TAG = 'shipment-order-edited';

async function registered(s: ShipmentStack, id: string): Promise<void> {
  await s.parts.enqueueOrder(id, 'orders/create');
  await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');
  await waitForJob(s.queues.markOrder, `registered-${id}`, 'completed');
}

/** Waits until `count` edit checks have run, and returns what each found, oldest first. */
async function checksDone(s: ShipmentStack, count: number): Promise<string[]> {
  const jobs = await waitUntil(
    async () => {
      const all = await allJobs(s.queues.checkOrderEdit);
      const failed = all.find((job) => job.failedReason);
      if (failed) throw new Error(`edit check failed: ${failed.failedReason}`);
      // Each job as read in one go: finished with its return value, or not yet.
      return all.length >= count && all.every((job) => job.returnvalue) ? all : null;
    },
    { what: `${count} edit checks to complete`, timeoutMs: 10_000 + count * EDIT_CHECK_DELAY_MS },
  );
  return jobs
    .sort((a, b) => a.timestamp - b.timestamp)
    .map((job) => (job.returnvalue as { outcome: string }).outcome);
}

function noteLines(s: ShipmentStack, id: string): string[] {
  return (s.store.order(id)?.note ?? '').split('\n').filter((line) => line.startsWith('Edited'));
}

async function markJobs(s: ShipmentStack, kind: string) {
  return (await allJobs(s.queues.markOrder)).filter((job) => job.data.kind === kind);
}

describe('an order edited after its shipment was registered', () => {
  it('is reported to staff once: tag, note naming what changed (not the values), counter', {
    timeout: 30_000,
  }, async () => {
    const s = await start();
    await registered(s, ID);
    const orderNumber = (await s.records.get(ID))?.orderNumber;

    // The registration's own marks changed the order; its orders/updated finds nothing to tell.
    expect(await s.parts.enqueueOrder(ID, 'orders/updated')).toBe('already_registered');
    expect(await checksDone(s, 1)).toEqual(['unchanged']);

    // Staff change the receiver's postal code in Shopify.
    await editOrderInShopify(s.store, STORE_TOKEN, ID, (order) => {
      order.shippingAddress.zip = '2100';
    });
    expect(await s.parts.enqueueOrder(ID, 'orders/updated')).toBe('already_registered');
    expect(await checksDone(s, 2)).toEqual(['unchanged', 'reported']);

    await waitUntil(() => s.store.order(ID)?.tags.includes(EDITED_TAG), { what: 'the edit tag' });
    await waitUntil(() => noteLines(s, ID).length > 0, { what: 'the edit note' });
    const [line] = noteLines(s, ID);
    expect(line).toMatch(
      new RegExp(
        `^Edited after shipment ${orderNumber} was registered with the provider \\(noticed .+\\): the receiver \\(name, address or phone\\) changed\\. The API cannot update a shipment: tell the provider\\.$`,
      ),
    );
    expect(line).not.toContain('2100');
    expect((await s.counters.read()).orders_edited_after_registration).toBe(1);

    // Our tag and note fire orders/updated again, and reconciliation sees the order as well:
    // the same change is not reported a second time, and nothing more is written.
    await waitForJob(s.queues.markOrder, (await markJobs(s, 'order_edited'))[0]!.id!, 'completed');
    const writes = s.store.mutations.length;
    expect(await s.parts.enqueueOrder(ID, 'orders/updated')).toBe('already_registered');
    await checksDone(s, 3);
    await reconcileOrders(new Date(Date.now() - 3_600_000), 'reconcile', {
      ...s.parts,
      store: s.storeClient,
      eligibility: s.config.eligibility,
    });
    expect(await checksDone(s, 4)).toEqual([
      'unchanged',
      'reported',
      'already_reported',
      'already_reported',
    ]);

    expect((await s.counters.read()).orders_edited_after_registration).toBe(1);
    expect(await markJobs(s, 'order_edited')).toHaveLength(1);
    expect(noteLines(s, ID)).toHaveLength(1);
    expect(s.store.mutations.length).toBe(writes);
    expect(createRequests(s.sandbox)).toHaveLength(1);
  });

  it('reports a later, different edit again, with everything that differs from what was sent', async () => {
    const s = await start();
    await registered(s, ID);
    await editOrderInShopify(s.store, STORE_TOKEN, ID, (order) => {
      changeQuantity(order, 0, 1);
    });
    await s.parts.enqueueOrder(ID, 'orders/updated');
    expect(await checksDone(s, 1)).toEqual(['reported']);
    await waitUntil(() => noteLines(s, ID).length === 1, { what: 'the first edit note' });
    expect(noteLines(s, ID)[0]).toContain(': the lines (items or quantities) changed.');

    // Then a heavier variant as well.
    nock.cleanAll();
    await editOrderInShopify(s.store, STORE_TOKEN, ID, (order) => {
      const [line] = order.lineItems.nodes;
      changeQuantity(order, 0, 1);
      line!.variant.inventoryItem.measurement.weight.value *= 2;
    });
    await s.parts.enqueueOrder(ID, 'orders/updated');
    expect(await checksDone(s, 2)).toEqual(['reported', 'reported']);

    await waitUntil(() => noteLines(s, ID).length === 2, { what: 'the second edit note' });
    expect(noteLines(s, ID)[1]).toContain(
      ': the lines (items or quantities) and the weights changed.',
    );
    expect((await s.counters.read()).orders_edited_after_registration).toBe(2);
  });

  it('is checked once for a burst of updates', async () => {
    const s = await start();
    await registered(s, ID);

    const results = await Promise.all(
      ['orders/updated', 'orders/updated', 'reconcile', 'orders/updated', 'orders/paid'].map(
        (source) => s.parts.enqueueOrder(ID, source),
      ),
    );

    expect(new Set(results)).toEqual(new Set(['already_registered']));
    expect(await allJobs(s.queues.checkOrderEdit)).toHaveLength(1);
    expect(await checksDone(s, 1)).toEqual(['unchanged']);
  });
});

describe("an order's webhooks, as Shopify sends them", () => {
  it('read the order for a staff edit, never for the connector’s own writes', {
    timeout: 60_000,
  }, async () => {
    const time = providerClock();
    const s = await start({ sandbox: { clock: time.clock } });
    const route = await serveWebhooks(s);
    try {
      await s.storeClient.createWebhookSubscription('ORDERS_UPDATED', route.url);
      const id = '8700001';
      await s.store.createOrder(
        { id, lineItems: [{ title: 'Mug', quantity: 2 }, { title: 'Blanket' }] },
        { webhookUrl: route.url },
      );
      await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');
      await settled(s);
      // The registration marks sent orders/updated: nothing to check.
      const marked = await webhooksTaken(s);
      expect(marked).toBeGreaterThanOrEqual(1);
      expect(await allJobs(s.queues.checkOrderEdit)).toEqual([]);

      // Staff take a mug off the order: its orders/updated is checked, and the edit reported.
      await s.store.updateOrder(id, { lineQuantities: [{ title: 'Mug', quantity: 1 }] });
      expect(await checksDone(s, 1)).toEqual(['reported']);

      // The edit's marks (tag and note), the fulfilment and the delivered event: each sends
      // orders/updated, and none is checked.
      for (const step of ['shipped', 'delivered'] as const) {
        await settled(s);
        time.tick();
        s.sandbox.advance(id, step, { carrier: 'PostNord', trackingNumber: `TN${id}` });
        await runSync(s);
      }
      await settled(s);
      expect(s.store.order(id)?.fulfillments.map((f) => f.displayStatus)).toEqual(['DELIVERED']);
      expect(await webhooksTaken(s)).toBeGreaterThanOrEqual(marked + 4);
      expect(await allJobs(s.queues.checkOrderEdit)).toHaveLength(1);
    } finally {
      await route.close();
    }
  });
});

/** Waits until every orders/updated the store sent was answered 200; returns how many. */
async function webhooksTaken(s: ShipmentStack): Promise<number> {
  const { answered } = await waitUntil(
    () => {
      const deliveries = s.store.webhookDeliveries();
      return deliveries.sending === 0 ? deliveries : null;
    },
    { what: 'the webhooks to be answered' },
  );
  const updates = answered.filter((delivery) => delivery.topic === 'orders/updated');
  expect(updates.map((delivery) => delivery.status)).toEqual(updates.map(() => 200));
  return updates.length;
}
