import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FakeOrderInput } from '../../src/sandbox/store/model.js';
import { type FakeStore, startFakeStore } from '../../src/sandbox/store/server.js';
import { StoreAuthError, StoreUserError } from '../../src/store/errors.js';
import { ACCESS_TOKEN, recordingSleep, SHOP, testClient, WEBHOOK_SECRET } from './helpers.js';

const CLIENT_ID = 'fake-client';
const CLIENT_SECRET = 'fake-client-secret';

/** Every test talks to a real fake store over HTTP; https://{shop} is unreachable under nock. */
async function start(orders?: FakeOrderInput[]) {
  return startFakeStore({
    shop: SHOP,
    accessToken: ACCESS_TOKEN,
    webhookSecret: WEBHOOK_SECRET,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    ...(orders ? { orders } : {}),
  });
}

describe('Admin client against the fake store, fixtures', () => {
  let store: FakeStore;
  beforeAll(async () => {
    store = await start();
  });
  afterAll(() => store.close());

  const client = () => testClient({ adminApiUrl: store.url });

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
        title: 'Wool blanket, grey',
        quantity: 2,
        requiresShipping: true,
        productType: 'Textiles',
        weight: { value: 1200, unit: 'GRAMS' },
      },
      {
        title: 'Ceramic mug',
        quantity: 4,
        requiresShipping: true,
        productType: 'Homeware',
        weight: { value: 350, unit: 'GRAMS' },
      },
      // No weight set: the store reports 0 g, the client says "unknown".
      {
        title: 'Gift card',
        quantity: 1,
        requiresShipping: false,
        productType: 'Gift card',
        weight: null,
      },
    ]);
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

  it('reads back the order number it wrote on the order, in the order and in the listing', async () => {
    expect((await client().getOrder('5550002'))?.shipmentOrderNumber).toBeNull();
    await client().setOrderMetafields('5550002', [
      {
        namespace: 'partner_shipment',
        key: 'order_number',
        value: 'PS-77',
        type: 'single_line_text_field',
      },
    ]);

    expect((await client().getOrder('5550002'))?.shipmentOrderNumber).toBe('PS-77');
    const { orders } = await client().listOrdersUpdatedSince(new Date('2020-01-01T00:00:00Z'));
    expect(orders.find((o) => o.id === '5550002')?.shipmentOrderNumber).toBe('PS-77');
  });

  it('returns null for an order the store does not have', async () => {
    await expect(client().getOrder('1')).resolves.toBeNull();
  });

  it('refuses a wrong fixed token with StoreAuthError', async () => {
    const wrong = testClient({
      adminApiUrl: store.url,
      auth: { kind: 'accessToken', accessToken: 'shpat_wrong' },
    });
    await expect(wrong.getOrder('5550001')).rejects.toBeInstanceOf(StoreAuthError);
  });
});

describe('Admin client against the fake store, paging', () => {
  let store: FakeStore;
  const base = Date.parse('2026-11-01T00:00:00Z');
  beforeAll(async () => {
    // 130 orders updated a minute apart, created in shuffled order.
    const orders = Array.from({ length: 130 }, (_, i) => ({
      id: String(7_000_000 + ((i * 37) % 130)),
      updatedAt: new Date(base + ((i * 37) % 130) * 60_000).toISOString(),
      createdAt: new Date(base - 86_400_000).toISOString(),
    }));
    store = await start(orders);
  });
  afterAll(() => store.close());

  it('pages 100 at a time through orders updated since a time, oldest update first', async () => {
    const client = testClient({ adminApiUrl: store.url });
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

describe('Admin client against the fake store, throttling and errors', () => {
  let store: FakeStore;
  beforeAll(async () => {
    store = await start();
  });
  afterAll(() => store.close());

  it('waits out THROTTLED answers for the bucket refill and then succeeds', async () => {
    store.throttleNext(2, { currentlyAvailable: 4, restoreRate: 1000 });
    const { waits, sleep } = recordingSleep();
    const before = store.requests.length;

    const order = await testClient({ adminApiUrl: store.url, sleep }).getOrder('5550001');

    expect(order?.id).toBe('5550001');
    // requested 10, available 4, 1000 points/s → 6 ms
    expect(waits).toEqual([6, 6]);
    expect(store.requests.slice(before).map((r) => r.outcome)).toEqual([
      'throttled',
      'throttled',
      'ok',
    ]);
  });

  it('really sleeps the small wait when no sleep is injected', async () => {
    store.throttleNext(1, { currentlyAvailable: 0, restoreRate: 500 });
    const started = Date.now();
    await testClient({ adminApiUrl: store.url, sleep: undefined }).getOrder('5550001');
    expect(Date.now() - started).toBeGreaterThanOrEqual(19); // 10 points at 500/s
  });

  it('waits Retry-After after HTTP 429 and then succeeds', async () => {
    store.rateLimitNext(1, { retryAfterSeconds: 0.02 });
    const { waits, sleep } = recordingSleep();
    const order = await testClient({ adminApiUrl: store.url, sleep }).getOrder('5550002');
    expect(order?.id).toBe('5550002');
    expect(waits).toEqual([20]);
  });

  it('turns userErrors into StoreUserError with the field path, and writes nothing', async () => {
    const before = store.mutations.length;
    const error = await testClient({ adminApiUrl: store.url })
      .setOrderMetafields('5550001', [
        { namespace: 'shipping', key: 'ok', value: 'fine', type: 'single_line_text_field' },
        { namespace: 'shipping', key: 'bad', value: 'two\nlines', type: 'single_line_text_field' },
      ])
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreUserError);
    expect(error.userErrors).toEqual([
      {
        field: ['metafields', '1', 'value'],
        message: 'Value must be a single line text string.',
        code: 'INVALID_VALUE',
      },
    ]);
    expect(store.mutations.length).toBe(before);
    expect(store.order('5550001')?.metafields).toEqual([]);
  });
});

describe('Admin client against the fake store, order marks and fulfillment', () => {
  let store: FakeStore;
  beforeAll(async () => {
    store = await start();
  });
  afterAll(() => store.close());

  it('writes metafields, tags and a note line, and the store records each', async () => {
    const client = testClient({ adminApiUrl: store.url });
    await client.setOrderMetafields('5550001', [
      { namespace: 'shipping', key: 'reference', value: '5550001', type: 'single_line_text_field' },
      {
        namespace: 'shipping',
        key: 'error',
        value: 'line one\nline two',
        type: 'multi_line_text_field',
      },
    ]);
    await client.addOrderTags('5550001', ['shipment-registered', 'shipment-error']);
    await client.removeOrderTags('5550001', ['shipment-error']);
    await client.appendOrderNote('5550001', 'Shipment registered as 5550001.');
    await client.appendOrderNote('5550001', 'Shipment registered as 5550001.');
    await client.appendOrderNote('5550001', 'Second line.');

    const order = store.order('5550001');
    expect(
      order?.metafields.map(({ namespace, key, type, value }) => ({ namespace, key, type, value })),
    ).toEqual([
      { namespace: 'shipping', key: 'reference', type: 'single_line_text_field', value: '5550001' },
      {
        namespace: 'shipping',
        key: 'error',
        type: 'multi_line_text_field',
        value: 'line one\nline two',
      },
    ]);
    expect(order?.tags).toEqual(['newsletter', 'shipment-registered']);
    expect(order?.note).toBe('Shipment registered as 5550001.\nSecond line.');
    expect(store.mutations.map((m) => m.type)).toEqual([
      'metafieldsSet',
      'tagsAdd',
      'tagsRemove',
      'orderUpdate',
      'orderUpdate',
    ]);
  });

  it('fulfils the open fulfillment order with tracking, then updates tracking and adds events', async () => {
    const client = testClient({ adminApiUrl: store.url });
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
    expect((await client.getOrder('5550002'))?.fulfillmentStatus).toBe('fulfilled');

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
    const error = await testClient({ adminApiUrl: store.url })
      .createFulfillment({
        orderId: '5550007', // cancelled: its fulfillment order is closed
        tracking: { company: 'Partner Logistics', number: 'X' },
        notifyCustomer: false,
      })
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreUserError);
  });

  it('passes a Shopify refusal of a fulfillment through as StoreUserError', async () => {
    const client = testClient({ adminApiUrl: store.url });
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
    expect(error.userErrors[0].field).toEqual([
      'fulfillment',
      'lineItemsByFulfillmentOrder',
      '0',
      'fulfillmentOrderLineItems',
      '0',
      'quantity',
    ]);
  });
});

describe('Admin client against the fake store, large orders', () => {
  let store: FakeStore;
  beforeAll(async () => {
    store = await start([
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
    const open = await testClient({ adminApiUrl: store.url }).getFulfillmentOrders('5580001');

    expect(open).toHaveLength(1);
    expect(open[0]?.lineItems).toHaveLength(60);
    expect(new Set(open[0]?.lineItems.map((l) => l.id)).size).toBe(60);
    expect(store.requests.slice(before).map((r) => [r.operationName, r.outcome])).toEqual([
      ['GetFulfillmentOrders', 'ok'],
      ['GetFulfillmentOrderLineItems', 'ok'],
    ]);
  });

  it('lists a digital-only order as not requiring shipping', async () => {
    const page = await testClient({ adminApiUrl: store.url }).listOrdersUpdatedSince(
      new Date('2000-01-01T00:00:00Z'),
    );
    expect(page.orders.map((o) => [o.id, o.requiresShipping])).toEqual([
      ['5580001', true],
      ['5580002', false],
    ]);
  });
});

describe('Admin client against the fake store, deleting metafields', () => {
  let store: FakeStore;
  beforeAll(async () => {
    store = await start();
  });
  afterAll(() => store.close());

  it('deletes the named metafields, leaves the others, and takes a missing one as done', async () => {
    const client = testClient({ adminApiUrl: store.url });
    await client.setOrderMetafields('5550003', [
      {
        namespace: 'partner_shipment',
        key: 'status',
        value: 'error',
        type: 'single_line_text_field',
      },
      {
        namespace: 'partner_shipment',
        key: 'error',
        value: 'no\npostcode',
        type: 'multi_line_text_field',
      },
      { namespace: 'other_app', key: 'error', value: 'theirs', type: 'single_line_text_field' },
    ]);

    await client.deleteOrderMetafields('5550003', [
      { namespace: 'partner_shipment', key: 'error' },
      { namespace: 'partner_shipment', key: 'order_number' },
    ]);
    // Again, as a retried job would: nothing left to delete, and no error.
    await client.deleteOrderMetafields('5550003', [
      { namespace: 'partner_shipment', key: 'error' },
    ]);

    expect(
      store.order('5550003')?.metafields.map(({ namespace, key }) => `${namespace}.${key}`),
    ).toEqual(['partner_shipment.status', 'other_app.error']);
    const deletes = store.mutations.filter((m) => m.type === 'metafieldsDelete');
    expect(deletes).toEqual([
      {
        type: 'metafieldsDelete',
        at: expect.any(String),
        orderId: '5550003',
        metafields: [
          { namespace: 'partner_shipment', key: 'error', deleted: true },
          { namespace: 'partner_shipment', key: 'order_number', deleted: false },
        ],
      },
      {
        type: 'metafieldsDelete',
        at: expect.any(String),
        orderId: '5550003',
        metafields: [{ namespace: 'partner_shipment', key: 'error', deleted: false }],
      },
    ]);
  });

  it('passes a refusal (an order the store does not have) through as StoreUserError', async () => {
    const before = store.mutations.length;
    const error = await testClient({ adminApiUrl: store.url })
      .deleteOrderMetafields('1', [{ namespace: 'partner_shipment', key: 'error' }])
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreUserError);
    expect(error.userErrors).toEqual([
      { field: ['metafields', '0', 'ownerId'], message: 'Owner does not exist.' },
    ]);
    expect(store.mutations.length).toBe(before);
  });
});

describe('Admin client against the fake store, client credentials', () => {
  let store: FakeStore;
  beforeAll(async () => {
    store = await start();
  });
  afterAll(() => store.close());
  afterEach(() => store.revokeTokens());

  const ccClient = () =>
    testClient({
      adminApiUrl: store.url,
      auth: { kind: 'clientCredentials', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    });

  it('gets one token from the store and uses it for every request', async () => {
    const before = store.tokenRequests;
    const client = ccClient();
    await Promise.all([client.getOrder('5550001'), client.getOrder('5550002')]);
    await client.getOrder('5550003');
    expect(store.tokenRequests - before).toBe(1);
  });

  it('gets a new token after the store stops accepting the old one, and retries', async () => {
    const client = ccClient();
    await client.getOrder('5550001');
    const before = store.tokenRequests;
    store.revokeTokens();

    const order = await client.getOrder('5550001');

    expect(order?.id).toBe('5550001');
    expect(store.tokenRequests - before).toBe(1);
    expect(store.requests.slice(-2).map((r) => r.outcome)).toEqual(['unauthorized', 'ok']);
  });

  it('reports wrong client credentials as StoreAuthError', async () => {
    const client = testClient({
      adminApiUrl: store.url,
      auth: { kind: 'clientCredentials', clientId: CLIENT_ID, clientSecret: 'wrong' },
    });
    await expect(client.getOrder('5550001')).rejects.toBeInstanceOf(StoreAuthError);
  });
});
