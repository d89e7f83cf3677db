import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeStore } from '../../src/sandbox/store/index.js';
import { StoreUserError } from '../../src/store/errors.js';
import { createFulfillments } from '../../src/store/fulfillments/fulfillments.js';
import { createOrderReader } from '../../src/store/orders/order-reader.js';
import { startTestStore, testTransport } from './helpers.js';

/** Fulfillments built alone, as the status sync will use them. */
const fulfillmentsFor = (store: FakeStore) =>
  createFulfillments(testTransport({ adminApiUrl: store.url }));

describe('fulfillments against the fake store', () => {
  let store: FakeStore;
  beforeAll(async () => {
    store = await startTestStore();
  });
  afterAll(() => store.close());

  it('fulfils the open fulfillment order with tracking, then updates tracking and adds events', async () => {
    // The order is read over the same transport, as the status sync would.
    const transport = testTransport({ adminApiUrl: store.url });
    const client = createFulfillments(transport);
    const orders = createOrderReader(transport);
    const open = await client.getFulfillmentOrders('5550002');
    expect(open).toHaveLength(1);
    expect(open[0]?.lineItems).toMatchObject([{ totalQuantity: 1, remainingQuantity: 1 }]);

    const fulfillment = await client.createFulfillment({
      orderId: '5550002',
      tracking: {
        company: 'Partner Logistics',
        number: 'PL123',
        url: 'https://track.example/PL123',
      },
      notifyCustomer: false,
    });
    expect(fulfillment).toMatchObject({
      status: 'SUCCESS',
      tracking: [
        { company: 'Partner Logistics', number: 'PL123', url: 'https://track.example/PL123' },
      ],
    });
    await expect(client.getFulfillmentOrders('5550002')).resolves.toEqual([]);
    expect((await orders.getOrder('5550002'))?.fulfillmentStatus).toBe('fulfilled');

    const updated = await client.updateFulfillmentTracking(fulfillment.id, {
      company: 'Partner Logistics',
      number: 'PL124',
    });
    expect(updated.tracking).toEqual([
      { company: 'Partner Logistics', number: 'PL124', url: null },
    ]);
    const inTransit = await client.createFulfillmentEvent(fulfillment.id, 'IN_TRANSIT');
    const delivered = await client.createFulfillmentEvent(fulfillment.id, 'DELIVERED', {
      happenedAt: '2026-11-22T09:00:00Z',
    });
    expect(inTransit.status).toBe('IN_TRANSIT');
    expect(delivered).toMatchObject({ status: 'DELIVERED', happenedAt: '2026-11-22T09:00:00Z' });

    const recorded = store.order('5550002')?.fulfillments[0];
    expect(recorded?.events.map((e) => e.status)).toEqual(['IN_TRANSIT', 'DELIVERED']);
    expect(store.mutations.filter((m) => m.orderId === '5550002').map((m) => m.type)).toEqual([
      'fulfillmentCreate',
      'fulfillmentTrackingInfoUpdate',
      'fulfillmentEventCreate',
      'fulfillmentEventCreate',
    ]);
  });

  it('refuses to fulfil an order with nothing left to ship', async () => {
    const error = await fulfillmentsFor(store)
      .createFulfillment({
        orderId: '5550007', // cancelled: its fulfillment order is closed
        tracking: { company: 'Partner Logistics', number: 'X' },
        notifyCustomer: false,
      })
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreUserError);
  });

  it('passes a Shopify refusal of a fulfillment through as StoreUserError', async () => {
    const client = fulfillmentsFor(store);
    const [fo] = await client.getFulfillmentOrders('5550004');
    const error = await client
      .createFulfillment({
        orderId: '5550004',
        lineItems: [
          {
            fulfillmentOrderId: fo!.id,
            fulfillmentOrderLineItemId: fo!.lineItems[0]!.id,
            quantity: 5,
          },
        ],
        tracking: { company: 'Partner Logistics', number: 'X' },
        notifyCustomer: false,
      })
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreUserError);
    // More than the line has left: Shopify refuses the whole input.
    expect(error.userErrors[0]).toEqual({
      field: ['fulfillment'],
      message: 'Invalid fulfillment order line item quantity requested.',
    });
  });
});

describe('fulfillments against the fake store, large orders', () => {
  let store: FakeStore;
  beforeAll(async () => {
    store = await startTestStore([
      {
        id: '5580001',
        lineItems: Array.from({ length: 60 }, (_, i) => ({ title: `Print ${i + 1}` })),
      },
      { id: '5580002', lineItems: [{ title: 'Gift card', requiresShipping: false }] },
    ]);
  });
  afterAll(() => store.close());

  it('reads every line of a fulfillment order beyond the first 50, in a second request', async () => {
    const before = store.requests.length;
    const open = await fulfillmentsFor(store).getFulfillmentOrders('5580001');

    expect(open).toHaveLength(1);
    expect(open[0]?.lineItems).toHaveLength(60);
    expect(new Set(open[0]?.lineItems.map((l) => l.id)).size).toBe(60);
    expect(store.requests.slice(before).map((r) => [r.operationName, r.outcome])).toEqual([
      ['GetFulfillmentOrders', 'ok'],
      ['GetFulfillmentOrderLineItems', 'ok'],
    ]);
  });
});
