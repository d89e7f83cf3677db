import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreNotFoundError } from '../../src/store/errors.js';
import { createFulfillments } from '../../src/store/fulfillments/fulfillments.js';
import { testTransport } from './helpers.js';
import { answer, LAST_PAGE } from './nock-graphql.js';

/** Fulfillments on their own transport: what the status sync builds. */
const fulfillments = () => createFulfillments(testTransport());

afterEach(() => {
  nock.cleanAll();
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

    const open = await fulfillments().getFulfillmentOrders('1');

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
    await expect(fulfillments().getFulfillmentOrders('1')).rejects.toBeInstanceOf(
      StoreNotFoundError,
    );
  });
});

describe('fulfilling', () => {
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
            fulfillmentLineItems: {
              nodes: [{ quantity: 2, lineItem: { id: 'gid://shopify/LineItem/5' } }],
              pageInfo: { hasNextPage: false },
            },
          },
          userErrors: [],
        },
      },
    });

    const fulfillment = await fulfillments().createFulfillment({
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
      units: [{ lineItemId: 'gid://shopify/LineItem/5', quantity: 2 }],
    });
  });

  it('groups named fulfillment order lines by fulfillment order', async () => {
    const create = answer({
      data: {
        fulfillmentCreate: {
          fulfillment: {
            id: 'f',
            status: 'SUCCESS',
            trackingInfo: [],
            // More line items than the answer lists: the units are not known.
            fulfillmentLineItems: { nodes: [], pageInfo: { hasNextPage: true } },
          },
          userErrors: [],
        },
      },
    });
    const made = await fulfillments().createFulfillment({
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
    expect(made.units).toBeNull();
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
    const client = fulfillments();
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
