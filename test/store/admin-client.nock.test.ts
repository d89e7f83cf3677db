import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import {
  StoreAuthError,
  StoreNotFoundError,
  StoreRequestError,
  StoreThrottledError,
  StoreUserError,
} from '../../src/store/errors.js';
import {
  ACCESS_TOKEN,
  capturingLogger,
  GRAPHQL_PATH,
  orderNode,
  orderSummaryNode,
  recordingSleep,
  SHOP_ORIGIN,
  testClient,
  throttledBody,
} from './helpers.js';

type GraphqlBody = { query: string; variables?: Record<string, unknown> };

/** Answers the next GraphQL request with `reply` and records the request body. */
function answer(reply: unknown, status = 200, origin = SHOP_ORIGIN) {
  const requests: GraphqlBody[] = [];
  const scope = nock(origin)
    .post(GRAPHQL_PATH)
    .reply(status, (_uri, body) => {
      requests.push(body as GraphqlBody);
      return reply as nock.Body;
    });
  return { scope, requests };
}

afterEach(() => {
  nock.cleanAll();
});

const LAST_PAGE = { hasNextPage: false, endCursor: null };

describe('getOrder', () => {
  it('refuses an order with more line items than it reads, rather than ship part of it', async () => {
    const node = orderNode();
    nock(SHOP_ORIGIN)
      .post(GRAPHQL_PATH)
      .reply(200, {
        data: {
          order: { ...node, lineItems: { ...node.lineItems, pageInfo: { hasNextPage: true } } },
        },
      });

    const error = await testClient()
      .getOrder('5551234')
      .catch((e) => e);

    expect(error).toBeInstanceOf(StoreRequestError);
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      'Order #1001 has more than 100 line items, more than the connector reads; register its shipment by hand.',
    );
  });

  it('asks for the order by gid with the access token and maps it to a StoreOrder', async () => {
    const requests: GraphqlBody[] = [];
    nock(SHOP_ORIGIN)
      .post(GRAPHQL_PATH)
      .matchHeader('x-shopify-access-token', ACCESS_TOKEN)
      .reply(200, (_uri, body) => {
        requests.push(body as GraphqlBody);
        return { data: { order: orderNode() } };
      });

    const order = await testClient().getOrder('5551234');

    expect(requests[0]?.query).toContain('query GetOrder');
    expect(requests[0]?.variables).toEqual({ id: 'gid://shopify/Order/5551234' });
    expect(order).toEqual({
      id: '5551234',
      name: '#1001',
      createdAt: '2026-11-20T09:15:00Z',
      updatedAt: '2026-11-20T09:20:00Z',
      test: false,
      cancelledAt: null,
      financialStatus: 'paid',
      fulfillmentStatus: 'unfulfilled',
      tags: ['vip'],
      shipmentOrderNumber: null,
      email: 'mette@example.dk',
      phone: '+4520123456',
      shippingAddress: {
        name: 'Mette Hansen',
        company: null,
        phone: '+4520123456',
        address1: 'Nørrebrogade 12',
        address2: '2. th',
        city: 'København N',
        zip: '2200',
        countryCode: 'DK',
      },
      lineItems: [
        {
          title: 'Wool blanket',
          quantity: 2,
          requiresShipping: true,
          productType: 'Textiles',
          weight: { value: 1200, unit: 'GRAMS' },
        },
        // Zero weight and an empty product type mean "not set".
        {
          title: 'Gift card',
          quantity: 1,
          requiresShipping: false,
          productType: null,
          weight: null,
        },
      ],
    });
  });

  it('accepts a gid as the id', async () => {
    const { requests } = answer({ data: { order: orderNode() } });
    await testClient().getOrder('gid://shopify/Order/5551234');
    expect(requests[0]?.variables).toEqual({ id: 'gid://shopify/Order/5551234' });
  });

  it('returns null when the store has no such order', async () => {
    answer({ data: { order: null } });
    await expect(testClient().getOrder('999')).resolves.toBeNull();
  });

  it('keeps a deleted variant and product as no weight and no product type', async () => {
    const node = orderNode();
    node.lineItems.nodes[0] = {
      ...node.lineItems.nodes[0]!,
      product: null as never,
      variant: null as never,
    };
    answer({ data: { order: node } });
    const order = await testClient().getOrder('5551234');
    expect(order?.lineItems[0]).toMatchObject({ productType: null, weight: null });
  });

  it('refuses an id that is not an order id without calling Shopify', async () => {
    await expect(testClient().getOrder('abc')).rejects.toBeInstanceOf(StoreNotFoundError);
  });
});

describe('listOrdersUpdatedSince', () => {
  it('asks for 100 order summaries updated since the time, sorted by update, and returns the next cursor', async () => {
    const { requests } = answer({
      data: {
        orders: {
          nodes: [
            orderSummaryNode(),
            orderSummaryNode({
              id: 'gid://shopify/Order/5551235',
              name: '#1002',
              displayFinancialStatus: 'PENDING',
              requiresShipping: false,
            }),
          ],
          pageInfo: { hasNextPage: true, endCursor: 'cursor-2' },
        },
      },
    });

    const page = await testClient().listOrdersUpdatedSince(new Date('2026-11-01T10:00:00.250Z'));

    expect(requests[0]?.query).toMatch(/sortKey: UPDATED_AT/);
    // A page of whole orders would cost Shopify far more than its 1,000-point limit per query.
    expect(requests[0]?.query).not.toMatch(/lineItems|shippingAddress/);
    expect(requests[0]?.variables).toEqual({
      first: 100,
      after: null,
      query: "updated_at:>='2026-11-01T10:00:00Z'",
    });
    expect(page.orders).toEqual([
      {
        id: '5551234',
        name: '#1001',
        createdAt: '2026-11-20T09:15:00Z',
        updatedAt: '2026-11-20T09:20:00Z',
        test: false,
        cancelledAt: null,
        financialStatus: 'paid',
        fulfillmentStatus: 'unfulfilled',
        tags: ['vip'],
        shipmentOrderNumber: null,
        requiresShipping: true,
      },
      expect.objectContaining({
        id: '5551235',
        financialStatus: 'pending',
        requiresShipping: false,
      }),
    ]);
    expect(page.nextCursor).toBe('cursor-2');
  });

  it('passes the cursor on and ends paging on the last page', async () => {
    const { requests } = answer({
      data: { orders: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } } },
    });
    const page = await testClient().listOrdersUpdatedSince(new Date('2026-11-01T10:00:00Z'), 'c1');
    expect(requests[0]?.variables?.after).toBe('c1');
    expect(page).toEqual({ orders: [], nextCursor: null });
  });

  it('refuses a next page without a cursor instead of silently ending the pass', async () => {
    answer({
      data: { orders: { nodes: [], pageInfo: { hasNextPage: true, endCursor: null } } },
    });
    await expect(
      testClient().listOrdersUpdatedSince(new Date('2026-11-01T10:00:00Z')),
    ).rejects.toBeInstanceOf(StoreRequestError);
  });
});

describe('throttling', () => {
  it('waits out a THROTTLED answer for as long as the bucket needs, then succeeds', async () => {
    const { waits, sleep } = recordingSleep();
    answer(throttledBody({ requested: 52, available: 12, restoreRate: 100 }));
    answer({ data: { order: orderNode() } });

    const order = await testClient({ sleep }).getOrder('5551234');

    expect(order?.id).toBe('5551234');
    // (52 - 12) points at 100 points/s
    expect(waits).toEqual([400]);
  });

  it('really sleeps when no sleep is injected (small restore-rate wait)', async () => {
    answer(throttledBody({ requested: 10, available: 0, restoreRate: 1000 }));
    answer({ data: { order: orderNode() } });
    const started = Date.now();
    await expect(testClient({ sleep: undefined }).getOrder('5551234')).resolves.not.toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(9);
  });

  it('waits Retry-After seconds (not milliseconds) after HTTP 429, then succeeds', async () => {
    const { waits, sleep } = recordingSleep();
    nock(SHOP_ORIGIN).post(GRAPHQL_PATH).reply(429, 'Too Many Requests', { 'Retry-After': '2.0' });
    answer({ data: { order: orderNode() } });

    await expect(testClient({ sleep }).getOrder('5551234')).resolves.not.toBeNull();
    expect(waits).toEqual([2000]);
  });

  it('waits a default second after a 429 without Retry-After', async () => {
    const { waits, sleep } = recordingSleep();
    nock(SHOP_ORIGIN).post(GRAPHQL_PATH).reply(429, '');
    answer({ data: { order: orderNode() } });
    await testClient({ sleep }).getOrder('5551234');
    expect(waits).toEqual([1000]);
  });

  it('gives up with StoreThrottledError after the allowed number of waits', async () => {
    const { waits, sleep } = recordingSleep();
    const scope = nock(SHOP_ORIGIN)
      .post(GRAPHQL_PATH)
      .times(3)
      .reply(200, throttledBody({ requested: 10, available: 0, restoreRate: 100 }));

    const error = await testClient({ sleep, maxThrottleWaits: 2 })
      .getOrder('5551234')
      .catch((e) => e);

    expect(error).toBeInstanceOf(StoreThrottledError);
    expect(error).toMatchObject({ waits: 2, operation: 'GetOrder', lastWaitMs: 100 });
    expect(waits).toEqual([100, 100]);
    expect(scope.isDone()).toBe(true);
  });
});

describe('getFulfillmentOrders', () => {
  const line = (id: number, remainingQuantity: number) => ({
    id: `gid://shopify/FulfillmentOrderLineItem/${id}`,
    totalQuantity: 3,
    remainingQuantity,
    lineItem: { id: `gid://shopify/LineItem/${id}` },
  });

  it('pages through fulfillment orders and through the lines of an open one, not a closed one', async () => {
    const first = answer({
      data: {
        order: {
          id: 'gid://shopify/Order/1',
          fulfillmentOrders: {
            nodes: [
              {
                id: 'gid://shopify/FulfillmentOrder/11',
                status: 'OPEN',
                // Its first page has nothing left; a later one does.
                lineItems: {
                  nodes: [line(1, 0)],
                  pageInfo: { hasNextPage: true, endCursor: 'l1' },
                },
              },
              {
                id: 'gid://shopify/FulfillmentOrder/12',
                status: 'CLOSED',
                lineItems: { nodes: [line(5, 0)], pageInfo: { hasNextPage: true, endCursor: 'x' } },
              },
            ],
            pageInfo: { hasNextPage: true, endCursor: 'fo1' },
          },
        },
      },
    });
    const lines = answer({
      data: {
        fulfillmentOrder: {
          id: 'gid://shopify/FulfillmentOrder/11',
          lineItems: { nodes: [line(2, 3)], pageInfo: LAST_PAGE },
        },
      },
    });
    const second = answer({
      data: {
        order: {
          id: 'gid://shopify/Order/1',
          fulfillmentOrders: {
            nodes: [
              {
                id: 'gid://shopify/FulfillmentOrder/13',
                status: 'IN_PROGRESS',
                lineItems: { nodes: [line(3, 1)], pageInfo: LAST_PAGE },
              },
            ],
            pageInfo: LAST_PAGE,
          },
        },
      },
    });

    const open = await testClient().getFulfillmentOrders('1');

    expect(first.requests[0]?.query).toContain('query GetFulfillmentOrders');
    expect(first.requests[0]?.variables).toEqual({ id: 'gid://shopify/Order/1', after: null });
    expect(lines.requests[0]?.query).toContain('query GetFulfillmentOrderLineItems');
    expect(lines.requests[0]?.variables).toEqual({
      id: 'gid://shopify/FulfillmentOrder/11',
      after: 'l1',
    });
    expect(second.requests[0]?.variables).toEqual({ id: 'gid://shopify/Order/1', after: 'fo1' });
    expect(open).toEqual([
      {
        id: 'gid://shopify/FulfillmentOrder/11',
        status: 'OPEN',
        lineItems: [
          {
            id: 'gid://shopify/FulfillmentOrderLineItem/2',
            lineItemId: 'gid://shopify/LineItem/2',
            totalQuantity: 3,
            remainingQuantity: 3,
          },
        ],
      },
      {
        id: 'gid://shopify/FulfillmentOrder/13',
        status: 'IN_PROGRESS',
        lineItems: [expect.objectContaining({ id: 'gid://shopify/FulfillmentOrderLineItem/3' })],
      },
    ]);
    expect(nock.isDone()).toBe(true);
  });

  it('throws StoreNotFoundError for an order the store does not have', async () => {
    answer({ data: { order: null } });
    await expect(testClient().getFulfillmentOrders('1')).rejects.toBeInstanceOf(StoreNotFoundError);
  });
});

describe('mutations', () => {
  it('sets metafields on the order and turns userErrors into StoreUserError with field paths', async () => {
    const { requests } = answer({
      data: {
        metafieldsSet: {
          metafields: null,
          userErrors: [
            { field: ['metafields', '0', 'value'], message: 'Value is too long', code: 'INVALID' },
          ],
        },
      },
    });

    const error = await testClient()
      .setOrderMetafields('5551234', [
        { namespace: 'shipping', key: 'reference', value: 'x', type: 'single_line_text_field' },
      ])
      .catch((e) => e);

    expect(requests[0]?.variables).toEqual({
      metafields: [
        {
          ownerId: 'gid://shopify/Order/5551234',
          namespace: 'shipping',
          key: 'reference',
          value: 'x',
          type: 'single_line_text_field',
        },
      ],
    });
    expect(error).toBeInstanceOf(StoreUserError);
    expect(error.userErrors).toEqual([
      { field: ['metafields', '0', 'value'], message: 'Value is too long', code: 'INVALID' },
    ]);
    expect(error.message).toBe(
      'Shopify refused SetOrderMetafields: metafields.0.value: Value is too long',
    );
  });

  it('refuses more than 25 metafields in one call (the atomic limit) without sending', async () => {
    const entries = Array.from({ length: 26 }, (_, i) => ({
      namespace: 'n',
      key: `k${i}`,
      value: 'v',
      type: 'single_line_text_field' as const,
    }));
    await expect(testClient().setOrderMetafields('1', entries)).rejects.toBeInstanceOf(
      StoreUserError,
    );
  });

  it('deletes metafields by owner, namespace and key; one the order lacks is no error', async () => {
    // As Shopify documents metafieldsDelete: a null entry for a metafield that does not exist.
    const { requests } = answer({
      data: {
        metafieldsDelete: {
          deletedMetafields: [
            {
              ownerId: 'gid://shopify/Order/5551234',
              namespace: 'partner_shipment',
              key: 'error',
            },
            null,
          ],
          userErrors: [],
        },
      },
    });

    await testClient().deleteOrderMetafields('5551234', [
      { namespace: 'partner_shipment', key: 'error' },
      { namespace: 'partner_shipment', key: 'never_set' },
    ]);

    expect(requests).toHaveLength(1);
    expect(requests[0]?.query).toContain('metafieldsDelete(metafields: $metafields)');
    expect(requests[0]?.variables).toEqual({
      metafields: [
        { ownerId: 'gid://shopify/Order/5551234', namespace: 'partner_shipment', key: 'error' },
        { ownerId: 'gid://shopify/Order/5551234', namespace: 'partner_shipment', key: 'never_set' },
      ],
    });
  });

  it('turns userErrors of metafieldsDelete into StoreUserError', async () => {
    answer({
      data: {
        metafieldsDelete: {
          deletedMetafields: null,
          userErrors: [{ field: ['metafields', '0', 'ownerId'], message: 'Owner does not exist.' }],
        },
      },
    });
    const error = await testClient()
      .deleteOrderMetafields('5551234', [{ namespace: 'partner_shipment', key: 'error' }])
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreUserError);
    expect(error.message).toBe(
      'Shopify refused DeleteOrderMetafields: metafields.0.ownerId: Owner does not exist.',
    );
  });

  it('sends no metafieldsDelete for no keys (Shopify wants one) or more than 25', async () => {
    // No interceptor: any request would fail with "no match".
    await testClient().deleteOrderMetafields('5551234', []);
    const keys = Array.from({ length: 26 }, (_, i) => ({ namespace: 'n', key: `k${i}` }));
    await expect(testClient().deleteOrderMetafields('5551234', keys)).rejects.toBeInstanceOf(
      StoreUserError,
    );
  });

  it('adds and removes tags', async () => {
    const added = answer({ data: { tagsAdd: { node: { id: 'x' }, userErrors: [] } } });
    const removed = answer({ data: { tagsRemove: { node: { id: 'x' }, userErrors: [] } } });
    const client = testClient();
    await client.addOrderTags('5551234', ['shipment-registered']);
    await client.removeOrderTags('5551234', ['shipment-failed']);
    expect(added.requests[0]?.query).toContain('tagsAdd');
    expect(added.requests[0]?.variables).toEqual({
      id: 'gid://shopify/Order/5551234',
      tags: ['shipment-registered'],
    });
    expect(removed.requests[0]?.query).toContain('tagsRemove');
    expect(removed.requests[0]?.variables?.tags).toEqual(['shipment-failed']);
  });

  it('appends a line to the existing note', async () => {
    answer({ data: { order: { id: 'gid://shopify/Order/1', note: 'Leave at the door' } } });
    const update = answer({ data: { orderUpdate: { order: null, userErrors: [] } } });
    await testClient().appendOrderNote('1', 'Shipment registered: 1');
    expect(update.requests[0]?.variables).toEqual({
      input: { id: 'gid://shopify/Order/1', note: 'Leave at the door\nShipment registered: 1' },
    });
  });

  it('does not append a line the note already has', async () => {
    const read = answer({
      data: { order: { id: 'gid://shopify/Order/1', note: 'a\nShipment registered: 1' } },
    });
    await testClient().appendOrderNote('1', 'Shipment registered: 1');
    expect(read.scope.isDone()).toBe(true);
    // No second interceptor: an orderUpdate would fail with "no match".
  });

  it('throws StoreNotFoundError when appending a note to a missing order', async () => {
    answer({ data: { order: null } });
    await expect(testClient().appendOrderNote('1', 'x')).rejects.toBeInstanceOf(StoreNotFoundError);
  });

  it('fulfils every open fulfillment order with tracking when none is named', async () => {
    answer({
      data: {
        order: {
          id: 'gid://shopify/Order/1',
          fulfillmentOrders: {
            nodes: [
              {
                id: 'gid://shopify/FulfillmentOrder/11',
                status: 'OPEN',
                lineItems: {
                  nodes: [
                    {
                      id: 'gid://shopify/FulfillmentOrderLineItem/111',
                      totalQuantity: 2,
                      remainingQuantity: 2,
                      lineItem: { id: 'gid://shopify/LineItem/1' },
                    },
                  ],
                  pageInfo: LAST_PAGE,
                },
              },
              {
                id: 'gid://shopify/FulfillmentOrder/12',
                status: 'CLOSED',
                lineItems: { nodes: [], pageInfo: LAST_PAGE },
              },
            ],
            pageInfo: LAST_PAGE,
          },
        },
      },
    });
    const create = answer({
      data: {
        fulfillmentCreate: {
          fulfillment: {
            id: 'gid://shopify/Fulfillment/77',
            status: 'SUCCESS',
            trackingInfo: [{ company: 'Partner', number: 'TRK1', url: null }],
          },
          userErrors: [],
        },
      },
    });

    const fulfillment = await testClient().createFulfillment({
      orderId: '1',
      tracking: { company: 'Partner', number: 'TRK1' },
      notifyCustomer: true,
    });

    expect(create.requests[0]?.variables).toEqual({
      fulfillment: {
        lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: 'gid://shopify/FulfillmentOrder/11' }],
        trackingInfo: { company: 'Partner', number: 'TRK1' },
        notifyCustomer: true,
      },
    });
    expect(fulfillment).toEqual({
      id: 'gid://shopify/Fulfillment/77',
      status: 'SUCCESS',
      tracking: [{ company: 'Partner', number: 'TRK1', url: null }],
    });
  });

  it('groups named fulfillment order lines by fulfillment order', async () => {
    const create = answer({
      data: {
        fulfillmentCreate: {
          fulfillment: { id: 'f', status: 'SUCCESS', trackingInfo: [] },
          userErrors: [],
        },
      },
    });
    await testClient().createFulfillment({
      orderId: '1',
      lineItems: [
        { fulfillmentOrderId: 'FO1', fulfillmentOrderLineItemId: 'L1', quantity: 1 },
        { fulfillmentOrderId: 'FO1', fulfillmentOrderLineItemId: 'L2', quantity: 3 },
      ],
      tracking: { company: 'Partner', number: 'TRK1', url: 'https://track.example/TRK1' },
      notifyCustomer: false,
    });
    expect(create.requests[0]?.variables?.fulfillment).toMatchObject({
      lineItemsByFulfillmentOrder: [
        {
          fulfillmentOrderId: 'FO1',
          fulfillmentOrderLineItems: [
            { id: 'L1', quantity: 1 },
            { id: 'L2', quantity: 3 },
          ],
        },
      ],
      trackingInfo: { url: 'https://track.example/TRK1' },
    });
  });

  it('updates tracking and creates a fulfillment event on a numeric or gid fulfillment id', async () => {
    const tracking = answer({
      data: {
        fulfillmentTrackingInfoUpdate: {
          fulfillment: { id: 'gid://shopify/Fulfillment/77', status: 'SUCCESS', trackingInfo: [] },
          userErrors: [],
        },
      },
    });
    const event = answer({
      data: {
        fulfillmentEventCreate: {
          fulfillmentEvent: {
            id: 'gid://shopify/FulfillmentEvent/5',
            status: 'DELIVERED',
            happenedAt: '2026-11-21T10:00:00Z',
          },
          userErrors: [],
        },
      },
    });
    const client = testClient();
    await client.updateFulfillmentTracking('77', { company: 'Partner', number: 'TRK2' });
    const created = await client.createFulfillmentEvent(
      'gid://shopify/Fulfillment/77',
      'DELIVERED',
    );
    expect(tracking.requests[0]?.variables).toEqual({
      fulfillmentId: 'gid://shopify/Fulfillment/77',
      trackingInfoInput: { company: 'Partner', number: 'TRK2' },
      notifyCustomer: false,
    });
    expect(event.requests[0]?.variables).toEqual({
      fulfillmentEvent: { fulfillmentId: 'gid://shopify/Fulfillment/77', status: 'DELIVERED' },
    });
    expect(created.status).toBe('DELIVERED');
  });
});

describe('failures', () => {
  it('maps 401 to StoreAuthError without retrying a fixed token', async () => {
    const scope = nock(SHOP_ORIGIN)
      .post(GRAPHQL_PATH)
      .reply(401, { errors: '[API] Invalid API key or access token' });
    const error = await testClient()
      .getOrder('1')
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreAuthError);
    expect(error.status).toBe(401);
    expect(scope.isDone()).toBe(true);
  });

  it('maps 403 and ACCESS_DENIED to StoreAuthError', async () => {
    nock(SHOP_ORIGIN).post(GRAPHQL_PATH).reply(403, { errors: 'Forbidden' });
    await expect(testClient().getOrder('1')).rejects.toBeInstanceOf(StoreAuthError);
    answer({
      errors: [
        {
          message: 'Access denied for order field. Required access: `read_orders` access scope.',
          extensions: { code: 'ACCESS_DENIED' },
        },
      ],
      data: { order: null },
    });
    await expect(testClient().getOrder('1')).rejects.toBeInstanceOf(StoreAuthError);
  });

  it('maps 5xx and network failures to a retryable StoreRequestError', async () => {
    nock(SHOP_ORIGIN).post(GRAPHQL_PATH).reply(502, 'Bad Gateway');
    const server = await testClient()
      .getOrder('1')
      .catch((e) => e);
    expect(server).toBeInstanceOf(StoreRequestError);
    expect(server).toMatchObject({ status: 502, retryable: true });

    nock(SHOP_ORIGIN).post(GRAPHQL_PATH).replyWithError('socket hang up');
    const network = await testClient()
      .getOrder('1')
      .catch((e) => e);
    expect(network).toBeInstanceOf(StoreRequestError);
    expect(network.retryable).toBe(true);
  });

  it('maps a GraphQL error to a non-retryable StoreRequestError', async () => {
    answer({ errors: [{ message: "Field 'nope' doesn't exist on type 'Order'" }] });
    const error = await testClient()
      .getOrder('1')
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreRequestError);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("Field 'nope' doesn't exist");
  });

  it('maps a body that is not JSON, or not the expected shape, to StoreRequestError', async () => {
    nock(SHOP_ORIGIN)
      .post(GRAPHQL_PATH)
      .reply(200, '<html>oops</html>', { 'Content-Type': 'text/html' });
    await expect(testClient().getOrder('1')).rejects.toBeInstanceOf(StoreRequestError);

    answer({ data: { order: { id: 'gid://shopify/Order/1' } } });
    const error = await testClient()
      .getOrder('1')
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreRequestError);
    expect(error.message).toMatch(/unexpected shape/);
  });

  it('never puts the access token or customer data in errors or logs', async () => {
    const { logger, lines } = capturingLogger();
    answer(throttledBody({ requested: 10, available: 0, restoreRate: 100 }));
    nock(SHOP_ORIGIN).post(GRAPHQL_PATH).reply(401, { errors: 'Invalid API key or access token' });
    const error = await testClient({ logger })
      .getOrder('5551234')
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreAuthError);
    const surfaces = [error.message, String(error.cause), JSON.stringify(error), lines()];
    for (const text of surfaces) expect(text).not.toContain(ACCESS_TOKEN);

    answer({ data: { order: orderNode({ tags: null }) } });
    const shapeError = await testClient({ logger })
      .getOrder('5551234')
      .catch((e) => e);
    expect(shapeError.message).not.toContain('mette@example.dk');
    expect(lines()).not.toContain('Nørrebrogade');
  });
});

describe('adminApiUrl override', () => {
  it('sends Admin API requests to the override origin instead of https://{shop}', async () => {
    const override = 'http://127.0.0.1:4020';
    const { scope, requests } = answer({ data: { order: orderNode() } }, 200, override);
    const order = await testClient({ adminApiUrl: override }).getOrder('5551234');
    expect(order?.id).toBe('5551234');
    expect(scope.isDone()).toBe(true);
    expect(requests).toHaveLength(1);
  });

  it('keeps a path prefix of the override', async () => {
    const scope = nock('http://127.0.0.1:4021')
      .post(`/shopify${GRAPHQL_PATH}`)
      .reply(200, { data: { order: null } });
    await testClient({ adminApiUrl: 'http://127.0.0.1:4021/shopify/' }).getOrder('1');
    expect(scope.isDone()).toBe(true);
  });

  it('does not leak the override into another client for the same shop', async () => {
    const overridden = testClient({ adminApiUrl: 'http://127.0.0.1:4022' });
    const direct = testClient();
    const local = answer({ data: { order: null } }, 200, 'http://127.0.0.1:4022');
    const real = answer({ data: { order: null } });
    await Promise.all([overridden.getOrder('1'), direct.getOrder('2')]);
    expect(local.requests[0]?.variables?.id).toBe('gid://shopify/Order/1');
    expect(real.requests[0]?.variables?.id).toBe('gid://shopify/Order/2');
  });
});
