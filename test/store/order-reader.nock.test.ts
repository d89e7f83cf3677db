import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreNotFoundError, StoreRequestError } from '../../src/store/errors.js';
import { createOrderReader, MAX_ORDER_LINE_ITEMS } from '../../src/store/orders/order-reader.js';
import {
  ACCESS_TOKEN,
  GRAPHQL_PATH,
  orderNode,
  orderSummaryNode,
  SHOP_ORIGIN,
  testTransport,
} from './helpers.js';
import { answer, type GraphqlBody } from './nock-graphql.js';

/** Order reading on its own transport: no marks, no fulfillments. */
const reader = () => createOrderReader(testTransport());

afterEach(() => {
  nock.cleanAll();
});

describe('getOrder', () => {
  it('reads no further page of line items when Shopify says there is none', async () => {
    const { requests } = answer({ data: { order: orderNode() } });

    const order = await reader().getOrder('5551234');

    expect(requests).toHaveLength(1);
    expect(requests[0]?.query).toMatch(/lineItems\(first: 24\)/);
    expect(order?.lineItems).toHaveLength(2);
    expect(nock.isDone()).toBe(true);
  });

  it('asks for the next pages only while hasNextPage, and returns every line item in order', async () => {
    const first = orderNode();
    const page = (titles: string[], hasNextPage: boolean, endCursor: string | null) => ({
      data: {
        order: {
          updatedAt: first.updatedAt,
          lineItems: {
            nodes: titles.map((title) => ({ ...first.lineItems.nodes[0]!, title })),
            pageInfo: { hasNextPage, endCursor },
          },
        },
      },
    });
    const requests: GraphqlBody[] = [];
    const replies = [
      {
        data: {
          order: {
            ...first,
            lineItems: { ...first.lineItems, pageInfo: { hasNextPage: true, endCursor: 'c1' } },
          },
        },
      },
      page(['Third', 'Fourth'], true, 'c2'),
      page(['Fifth'], false, 'c3'),
    ];
    nock(SHOP_ORIGIN)
      .post(GRAPHQL_PATH)
      .times(3)
      .reply(200, (_uri, body) => {
        requests.push(body as GraphqlBody);
        return replies[requests.length - 1] as nock.Body;
      });

    const order = await reader().getOrder('5551234');

    expect(requests.map((r) => /query (\w+)/.exec(r.query)?.[1])).toEqual([
      'GetOrder',
      'GetOrderLineItems',
      'GetOrderLineItems',
    ]);
    expect(requests.slice(1).map((r) => r.variables)).toEqual([
      { id: 'gid://shopify/Order/5551234', after: 'c1' },
      { id: 'gid://shopify/Order/5551234', after: 'c2' },
    ]);
    expect(order?.lineItems.map((item) => item.title)).toEqual([
      'Wool blanket',
      'Gift card',
      'Third',
      'Fourth',
      'Fifth',
    ]);
  });

  it('reads the order again (a retryable error) when it changed between pages', async () => {
    const first = orderNode();
    nock(SHOP_ORIGIN)
      .post(GRAPHQL_PATH)
      .reply(200, {
        data: {
          order: {
            ...first,
            lineItems: { ...first.lineItems, pageInfo: { hasNextPage: true, endCursor: 'c1' } },
          },
        },
      })
      .post(GRAPHQL_PATH)
      .reply(200, {
        data: {
          order: {
            updatedAt: '2026-11-20T09:30:00Z',
            lineItems: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } },
          },
        },
      });

    const error = await reader()
      .getOrder('5551234')
      .catch((e) => e);

    expect(error).toBeInstanceOf(StoreRequestError);
    expect(error.retryable).toBe(true);
  });

  it(`refuses an order with more than ${MAX_ORDER_LINE_ITEMS} line items, rather than ship part of it`, async () => {
    const first = orderNode();
    const item = first.lineItems.nodes[0]!;
    const full = (n: number) => Array.from({ length: n }, () => item);
    let pages = 0;
    nock(SHOP_ORIGIN)
      .post(GRAPHQL_PATH)
      .times(MAX_ORDER_LINE_ITEMS / 25)
      .reply(200, () => {
        pages += 1;
        const lineItems = {
          nodes: full(25),
          pageInfo: { hasNextPage: true, endCursor: `c${pages}` },
        };
        return pages === 1
          ? { data: { order: { ...first, lineItems } } }
          : { data: { order: { updatedAt: first.updatedAt, lineItems } } };
      });

    const error = await reader()
      .getOrder('5551234')
      .catch((e) => e);

    expect(pages).toBe(MAX_ORDER_LINE_ITEMS / 25);
    expect(error).toBeInstanceOf(StoreRequestError);
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      `Order #1001 has more than ${MAX_ORDER_LINE_ITEMS} line items, more than the connector reads; register its shipment by hand.`,
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

    const order = await reader().getOrder('5551234');

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
      shipmentError: false,
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
          id: 'gid://shopify/LineItem/11',
          title: 'Wool blanket',
          quantity: 2,
          unfulfilledQuantity: 2,
          requiresShipping: true,
          productType: 'Textiles',
          weight: { value: 1200, unit: 'GRAMS' },
        },
        // Zero weight and an empty product type mean "not set".
        {
          id: 'gid://shopify/LineItem/12',
          title: 'Gift card',
          quantity: 1,
          unfulfilledQuantity: 1,
          requiresShipping: false,
          productType: null,
          weight: null,
        },
      ],
      fulfillmentOrders: [
        {
          id: 'gid://shopify/FulfillmentOrder/21',
          status: 'OPEN',
          location: {
            id: 'gid://shopify/Location/31',
            name: 'Shop location',
            isFulfillmentService: false,
          },
          deliveryMethod: 'SHIPPING',
          holdReasons: [],
          fulfillAt: null,
          lineItems: [
            {
              id: 'gid://shopify/FulfillmentOrderLineItem/41',
              lineItemId: 'gid://shopify/LineItem/11',
              totalQuantity: 2,
              remainingQuantity: 2,
            },
            {
              id: 'gid://shopify/FulfillmentOrderLineItem/42',
              lineItemId: 'gid://shopify/LineItem/12',
              totalQuantity: 1,
              remainingQuantity: 1,
            },
          ],
        },
      ],
    });
  });

  it('accepts a gid as the id', async () => {
    const { requests } = answer({ data: { order: orderNode() } });
    await reader().getOrder('gid://shopify/Order/5551234');
    expect(requests[0]?.variables).toEqual({ id: 'gid://shopify/Order/5551234' });
  });

  it('returns null when the store has no such order', async () => {
    answer({ data: { order: null } });
    await expect(reader().getOrder('999')).resolves.toBeNull();
  });

  it('keeps a deleted variant and product as no weight and no product type', async () => {
    const node = orderNode();
    node.lineItems.nodes[0] = {
      ...node.lineItems.nodes[0]!,
      product: null as never,
      variant: null as never,
    };
    answer({ data: { order: node } });
    const order = await reader().getOrder('5551234');
    expect(order?.lineItems[0]).toMatchObject({ productType: null, weight: null });
  });

  it('refuses an id that is not an order id without calling Shopify', async () => {
    await expect(reader().getOrder('abc')).rejects.toBeInstanceOf(StoreNotFoundError);
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

    const page = await reader().listOrdersUpdatedSince(new Date('2026-11-01T10:00:00.250Z'));

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
    const page = await reader().listOrdersUpdatedSince(new Date('2026-11-01T10:00:00Z'), 'c1');
    expect(requests[0]?.variables?.after).toBe('c1');
    expect(page).toEqual({ orders: [], nextCursor: null });
  });

  it('refuses a next page without a cursor instead of silently ending the pass', async () => {
    answer({
      data: { orders: { nodes: [], pageInfo: { hasNextPage: true, endCursor: null } } },
    });
    await expect(
      reader().listOrdersUpdatedSince(new Date('2026-11-01T10:00:00Z')),
    ).rejects.toBeInstanceOf(StoreRequestError);
  });
});
