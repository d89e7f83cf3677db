import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreNotFoundError, StoreRequestError } from '../../src/store/errors.js';
import { createOrderReader } from '../../src/store/orders/order-reader.js';
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
  it('refuses an order with more line items than it reads, rather than ship part of it', async () => {
    const node = orderNode();
    nock(SHOP_ORIGIN)
      .post(GRAPHQL_PATH)
      .reply(200, {
        data: {
          order: { ...node, lineItems: { ...node.lineItems, pageInfo: { hasNextPage: true } } },
        },
      });

    const error = await reader()
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
