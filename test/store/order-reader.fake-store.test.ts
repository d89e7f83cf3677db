import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeStore } from '../../src/sandbox/store/index.js';
import { createOrderMarks } from '../../src/store/order-marks/order-marks.js';
import { createOrderReader } from '../../src/store/orders/order-reader.js';
import { startTestStore, testTransport } from './helpers.js';

/** Order reading built alone, as registration and reconciliation use it. */
const readerFor = (store: FakeStore) =>
  createOrderReader(testTransport({ adminApiUrl: store.url }));

describe('order reading against the fake store, fixtures', () => {
  let store: FakeStore;
  beforeAll(async () => {
    store = await startTestStore();
  });
  afterAll(() => store.close());

  const client = () => readerFor(store);

  it('reads a paid Copenhagen order: gid → numeric id, lowercased statuses, gram weights', async () => {
    const order = await client().getOrder('5550001');
    expect(order).toMatchObject({
      id: '5550001',
      name: '#1001',
      financialStatus: 'paid',
      fulfillmentStatus: 'unfulfilled',
      test: false,
      cancelledAt: null,
      shippingAddress: { city: 'København N', zip: '2200', countryCode: 'DK' },
    });
    expect(order?.lineItems).toEqual([
      {
        id: expect.stringMatching(/^gid:\/\/shopify\/LineItem\//),
        title: 'Wool blanket, grey',
        quantity: 2,
        unfulfilledQuantity: 2,
        requiresShipping: true,
        productType: 'Textiles',
        weight: { value: 1200, unit: 'GRAMS' },
      },
      {
        id: expect.stringMatching(/^gid:\/\/shopify\/LineItem\//),
        title: 'Ceramic mug',
        quantity: 4,
        unfulfilledQuantity: 4,
        requiresShipping: true,
        productType: 'Homeware',
        weight: { value: 350, unit: 'GRAMS' },
      },
      // No weight set: the store reports 0 g, the client says "unknown".
      {
        id: expect.stringMatching(/^gid:\/\/shopify\/LineItem\//),
        title: 'Gift card',
        quantity: 1,
        unfulfilledQuantity: 1,
        requiresShipping: false,
        productType: 'Gift card',
        weight: null,
      },
    ]);
  });

  it("reads an order of 60 line items whole, 24 a page, and its fulfillment order's lines", async () => {
    const lineItems = Array.from({ length: 60 }, (_, i) => ({ title: `Item ${i + 1}` }));
    const { order: created } = await store.createOrder(
      { id: '5559060', lineItems },
      { sendWebhook: false },
    );
    const id = created.id;
    const before = store.requests.length;

    const order = await client().getOrder(id);

    expect(order?.lineItems.map((item) => item.title)).toEqual(lineItems.map((i) => i.title));
    expect(store.requests.slice(before).map((r) => r.operationName)).toEqual([
      'GetOrder',
      'GetOrderLineItems',
      'GetOrderLineItems',
      'GetFulfillmentOrderLineItems',
    ]);
    const [fulfillmentOrder] = order?.fulfillmentOrders ?? [];
    expect(fulfillmentOrder?.lineItems.map((line) => line.remainingQuantity)).toEqual(
      lineItems.map(() => 1),
    );
  });

  it('finds an order by its name, with or without the #, and nothing for a name no order has', async () => {
    expect(await client().findOrderByName('#1003')).toEqual({ id: '5550003', name: '#1003' });
    expect(await client().findOrderByName('1003')).toEqual({ id: '5550003', name: '#1003' });
    expect(await client().findOrderByName('#9999')).toBeNull();
    // Not a prefix or a part of a name: #100 is no order, though #1001 to #1007 are.
    expect(await client().findOrderByName('#100')).toBeNull();
  });

  it('reads the cases the connector must tell apart', async () => {
    const [documentOrder, noZip, heavy, unpaid, testOrder, cancelled] = await Promise.all(
      ['5550002', '5550003', '5550004', '5550005', '5550006', '5550007'].map((id) =>
        client().getOrder(id),
      ),
    );
    expect(documentOrder?.tags).toContain('document');
    expect(noZip?.shippingAddress?.zip).toBeNull();
    expect(heavy?.lineItems[0]?.weight).toEqual({ value: 45, unit: 'KILOGRAMS' });
    expect(unpaid?.financialStatus).toBe('pending');
    expect(testOrder?.test).toBe(true);
    expect(cancelled).toMatchObject({
      cancelledAt: '2026-11-20T15:30:00Z',
      financialStatus: 'voided',
    });
  });

  it('reads back the order number the connector wrote on the order, in the order and in the listing', async () => {
    expect((await client().getOrder('5550002'))?.shipmentOrderNumber).toBeNull();
    await createOrderMarks(testTransport({ adminApiUrl: store.url })).setOrderMetafields(
      '5550002',
      [
        {
          namespace: 'partner_shipment',
          key: 'order_number',
          value: 'PS-77',
          type: 'single_line_text_field',
        },
      ],
    );

    expect((await client().getOrder('5550002'))?.shipmentOrderNumber).toBe('PS-77');
    const { orders } = await client().listOrdersUpdatedSince(new Date('2020-01-01T00:00:00Z'));
    expect(orders.find((o) => o.id === '5550002')?.shipmentOrderNumber).toBe('PS-77');
  });

  it('returns null for an order the store does not have', async () => {
    await expect(client().getOrder('1')).resolves.toBeNull();
  });
});

describe('order reading against the fake store, paging', () => {
  let store: FakeStore;
  const base = Date.parse('2026-11-01T00:00:00Z');
  beforeAll(async () => {
    // 130 orders updated a minute apart, created in shuffled order.
    const orders = Array.from({ length: 130 }, (_, i) => ({
      id: String(7_000_000 + ((i * 37) % 130)),
      updatedAt: new Date(base + ((i * 37) % 130) * 60_000).toISOString(),
      createdAt: new Date(base - 86_400_000).toISOString(),
    }));
    store = await startTestStore(orders);
  });
  afterAll(() => store.close());

  it('pages 100 at a time through orders updated since a time, oldest update first', async () => {
    const client = readerFor(store);
    const since = new Date(base + 10 * 60_000); // skips the first 10
    const seen: string[] = [];
    const pageSizes: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listOrdersUpdatedSince(since, cursor);
      seen.push(...page.orders.map((o) => o.id));
      pageSizes.push(page.orders.length);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);

    expect(pageSizes).toEqual([100, 20]);
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => String(7_000_010 + i)));
    // Summaries: what the reconciliation pre-filter reads, no line items.
    const [first] = (await client.listOrdersUpdatedSince(since)).orders;
    expect(first).toEqual({
      id: '7000010',
      name: expect.any(String),
      createdAt: '2026-10-31T00:00:00.000Z',
      updatedAt: '2026-11-01T00:10:00.000Z',
      test: false,
      cancelledAt: null,
      financialStatus: 'paid',
      fulfillmentStatus: 'unfulfilled',
      tags: [],
      shipmentOrderNumber: null,
      requiresShipping: true,
    });
  });
});

describe('order reading against the fake store, digital orders', () => {
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

  it('lists a digital-only order as not requiring shipping', async () => {
    const page = await readerFor(store).listOrdersUpdatedSince(new Date('2000-01-01T00:00:00Z'));
    expect(page.orders.map((o) => [o.id, o.requiresShipping])).toEqual([
      ['5580001', true],
      ['5580002', false],
    ]);
  });
});
