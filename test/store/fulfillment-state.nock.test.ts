import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreNotFoundError, StoreRequestError } from '../../src/store/errors.js';
import { createFulfillments } from '../../src/store/fulfillments/fulfillments.js';
import { recordingSleep, testTransport, throttledBody } from './helpers.js';
import { answer, LAST_PAGE } from './nock-graphql.js';

const fulfillments = (sleep?: (ms: number) => Promise<void>) =>
  createFulfillments(testTransport(sleep ? { sleep } : {}));

afterEach(() => {
  nock.cleanAll();
});

const ORDER_GID = 'gid://shopify/Order/5551234';

function fulfillmentOrderNode(n: number, overrides: Record<string, unknown> = {}) {
  return {
    id: `gid://shopify/FulfillmentOrder/${n}`,
    status: 'OPEN',
    fulfillAt: null,
    supportedActions: [{ action: 'CREATE_FULFILLMENT' }, { action: 'REPORT_PROGRESS' }],
    assignedLocation: {
      name: 'Warehouse',
      location: { id: 'gid://shopify/Location/1', isFulfillmentService: false },
    },
    fulfillmentHolds: [],
    lineItems: { nodes: [{ remainingQuantity: 2 }], pageInfo: LAST_PAGE },
    ...overrides,
  };
}

function fulfillmentNode(n: number, createdAt: string, overrides: Record<string, unknown> = {}) {
  return {
    id: `gid://shopify/Fulfillment/${n}`,
    status: 'SUCCESS',
    displayStatus: 'FULFILLED',
    createdAt,
    deliveredAt: null,
    location: {
      id: 'gid://shopify/Location/1',
      name: 'Shop location',
      isFulfillmentService: false,
    },
    fulfillmentLineItems: {
      nodes: [{ quantity: 2, lineItem: { id: 'gid://shopify/LineItem/11' } }],
      pageInfo: LAST_PAGE,
    },
    trackingInfo: [{ company: 'Partner', number: `TRK${n}`, url: null }],
    ...overrides,
  };
}

function stateAnswer(order: Record<string, unknown>) {
  return answer({
    data: {
      order: {
        id: ORDER_GID,
        name: '#1003',
        cancelledAt: null,
        fulfillmentOrders: { nodes: [fulfillmentOrderNode(11)], pageInfo: LAST_PAGE },
        fulfillmentsCount: { count: 0 },
        fulfillments: [],
        ...order,
      },
    },
  });
}

describe('readFulfillmentState', () => {
  it('reads an ordinary order in one request and maps every field', async () => {
    const read = stateAnswer({
      fulfillmentOrders: {
        nodes: [
          fulfillmentOrderNode(11),
          fulfillmentOrderNode(12, {
            status: 'ON_HOLD',
            supportedActions: [{ action: 'RELEASE_HOLD' }],
            fulfillmentHolds: [{ displayReason: 'Awaiting payment' }],
            lineItems: { nodes: [{ remainingQuantity: 0 }], pageInfo: LAST_PAGE },
          }),
          fulfillmentOrderNode(13, {
            status: 'SCHEDULED',
            fulfillAt: '2026-12-01T00:00:00Z',
            supportedActions: [],
            // A fulfillment service's location, and one whose location was deleted since.
            assignedLocation: {
              name: 'Fulfilment partner',
              location: { id: 'gid://shopify/Location/9', isFulfillmentService: true },
            },
          }),
          fulfillmentOrderNode(14, {
            status: 'CLOSED',
            supportedActions: [],
            assignedLocation: { name: 'Old shop', location: null },
            lineItems: { nodes: [], pageInfo: LAST_PAGE },
          }),
        ],
        pageInfo: LAST_PAGE,
      },
      fulfillmentsCount: { count: 3 },
      fulfillments: [
        fulfillmentNode(76, '2026-11-19T10:00:00Z', {
          location: {
            id: 'gid://shopify/Location/9',
            name: 'Acme 3PL',
            isFulfillmentService: true,
          },
        }),
        fulfillmentNode(77, '2026-11-20T10:00:00Z', {
          displayStatus: 'DELIVERED',
          deliveredAt: '2026-11-22T12:00:00Z',
        }),
        fulfillmentNode(78, '2026-11-21T10:00:00Z', {
          status: 'CANCELLED',
          displayStatus: 'CANCELED',
          location: null,
          fulfillmentLineItems: { nodes: [], pageInfo: LAST_PAGE },
          trackingInfo: [],
        }),
      ],
    });

    const state = await fulfillments().readFulfillmentState('5551234');

    expect(read.requests).toHaveLength(1);
    expect(read.requests[0]?.query).toContain('query ReadFulfillmentState');
    expect(read.requests[0]?.variables).toEqual({ id: ORDER_GID });
    expect(state).toEqual({
      orderId: '5551234',
      name: '#1003',
      cancelledAt: null,
      fulfillmentOrders: [
        {
          id: 'gid://shopify/FulfillmentOrder/11',
          status: 'OPEN',
          supportedActions: ['CREATE_FULFILLMENT', 'REPORT_PROGRESS'],
          location: {
            id: 'gid://shopify/Location/1',
            name: 'Warehouse',
            isFulfillmentService: false,
          },
          holdReasons: [],
          fulfillAt: null,
          hasRemainingLines: true,
        },
        {
          id: 'gid://shopify/FulfillmentOrder/12',
          status: 'ON_HOLD',
          supportedActions: ['RELEASE_HOLD'],
          location: {
            id: 'gid://shopify/Location/1',
            name: 'Warehouse',
            isFulfillmentService: false,
          },
          holdReasons: ['Awaiting payment'],
          fulfillAt: null,
          hasRemainingLines: false,
        },
        {
          id: 'gid://shopify/FulfillmentOrder/13',
          status: 'SCHEDULED',
          supportedActions: [],
          location: {
            id: 'gid://shopify/Location/9',
            name: 'Fulfilment partner',
            isFulfillmentService: true,
          },
          holdReasons: [],
          fulfillAt: '2026-12-01T00:00:00Z',
          hasRemainingLines: true,
        },
        {
          id: 'gid://shopify/FulfillmentOrder/14',
          status: 'CLOSED',
          supportedActions: [],
          location: { id: null, name: 'Old shop', isFulfillmentService: false },
          holdReasons: [],
          fulfillAt: null,
          hasRemainingLines: false,
        },
      ],
      fulfillments: [
        {
          id: 'gid://shopify/Fulfillment/76',
          status: 'SUCCESS',
          displayStatus: 'FULFILLED',
          createdAt: '2026-11-19T10:00:00Z',
          deliveredAt: null,
          locationId: 'gid://shopify/Location/9',
          locationName: 'Acme 3PL',
          atFulfillmentService: true,
          lineItems: [{ lineItemId: 'gid://shopify/LineItem/11', quantity: 2 }],
          tracking: [{ company: 'Partner', number: 'TRK76', url: null }],
        },
        {
          id: 'gid://shopify/Fulfillment/77',
          status: 'SUCCESS',
          displayStatus: 'DELIVERED',
          createdAt: '2026-11-20T10:00:00Z',
          deliveredAt: '2026-11-22T12:00:00Z',
          locationId: 'gid://shopify/Location/1',
          locationName: 'Shop location',
          atFulfillmentService: false,
          lineItems: [{ lineItemId: 'gid://shopify/LineItem/11', quantity: 2 }],
          tracking: [{ company: 'Partner', number: 'TRK77', url: null }],
        },
        {
          id: 'gid://shopify/Fulfillment/78',
          status: 'CANCELLED',
          displayStatus: 'CANCELED',
          createdAt: '2026-11-21T10:00:00Z',
          deliveredAt: null,
          locationId: null,
          locationName: null,
          atFulfillmentService: false,
          lineItems: [],
          tracking: [],
        },
      ],
    });
  });

  it('takes a gid as well as a numeric id', async () => {
    const read = stateAnswer({});
    const state = await fulfillments().readFulfillmentState(ORDER_GID);
    expect(read.requests[0]?.variables).toEqual({ id: ORDER_GID });
    expect(state?.orderId).toBe('5551234');
  });

  it('answers null for an order the store does not have', async () => {
    answer({ data: { order: null } });
    await expect(fulfillments().readFulfillmentState('5551234')).resolves.toBeNull();
  });

  it('sends nothing for an id that names no order', async () => {
    await expect(fulfillments().readFulfillmentState('not-an-id')).rejects.toBeInstanceOf(
      StoreNotFoundError,
    );
  });

  it('pages through further fulfillment orders', async () => {
    stateAnswer({
      fulfillmentOrders: {
        nodes: [fulfillmentOrderNode(11)],
        pageInfo: { hasNextPage: true, endCursor: 'fo1' },
      },
    });
    const more = answer({
      data: {
        order: {
          id: ORDER_GID,
          fulfillmentOrders: { nodes: [fulfillmentOrderNode(12)], pageInfo: LAST_PAGE },
        },
      },
    });

    const state = await fulfillments().readFulfillmentState('5551234');

    expect(more.requests[0]?.query).toContain('query ReadOrderFulfillmentOrders');
    expect(more.requests[0]?.variables).toEqual({ id: ORDER_GID, after: 'fo1' });
    expect(state?.fulfillmentOrders.map((fo) => fo.id)).toEqual([
      'gid://shopify/FulfillmentOrder/11',
      'gid://shopify/FulfillmentOrder/12',
    ]);
    expect(nock.isDone()).toBe(true);
  });

  it('reads further lines only while every line so far is done, and stops at the first left', async () => {
    stateAnswer({
      fulfillmentOrders: {
        nodes: [
          fulfillmentOrderNode(11, {
            status: 'IN_PROGRESS',
            lineItems: {
              nodes: [{ remainingQuantity: 0 }],
              pageInfo: { hasNextPage: true, endCursor: 'l1' },
            },
          }),
          // Something left on its first page: its later pages are never read.
          fulfillmentOrderNode(12, {
            lineItems: {
              nodes: [{ remainingQuantity: 0 }, { remainingQuantity: 1 }],
              pageInfo: { hasNextPage: true, endCursor: 'never' },
            },
          }),
        ],
        pageInfo: LAST_PAGE,
      },
    });
    const done = answer({
      data: {
        fulfillmentOrder: {
          id: 'gid://shopify/FulfillmentOrder/11',
          lineItems: {
            nodes: [{ remainingQuantity: 0 }],
            pageInfo: { hasNextPage: true, endCursor: 'l2' },
          },
        },
      },
    });
    const left = answer({
      data: {
        fulfillmentOrder: {
          id: 'gid://shopify/FulfillmentOrder/11',
          // Its next page would be asked for only if nothing were left here.
          lineItems: {
            nodes: [{ remainingQuantity: 3 }],
            pageInfo: { hasNextPage: true, endCursor: 'l3' },
          },
        },
      },
    });

    const state = await fulfillments().readFulfillmentState('5551234');

    expect(done.requests[0]?.query).toContain('query ReadFulfillmentOrderRemainingLines');
    expect(done.requests[0]?.variables).toEqual({
      id: 'gid://shopify/FulfillmentOrder/11',
      after: 'l1',
    });
    expect(left.requests[0]?.variables).toEqual({
      id: 'gid://shopify/FulfillmentOrder/11',
      after: 'l2',
    });
    expect(state?.fulfillmentOrders.map((fo) => fo.hasRemainingLines)).toEqual([true, true]);
    expect(nock.isDone()).toBe(true);
  });

  it("reads a fulfillment's lines after its first five, page by page", async () => {
    const line = (n: number) => ({ quantity: 1, lineItem: { id: `gid://shopify/LineItem/${n}` } });
    stateAnswer({
      fulfillmentsCount: { count: 1 },
      fulfillments: [
        fulfillmentNode(77, '2026-11-20T10:00:00Z', {
          fulfillmentLineItems: {
            nodes: [1, 2, 3, 4, 5].map(line),
            pageInfo: { hasNextPage: true, endCursor: 'f5' },
          },
        }),
      ],
    });
    const more = answer({
      data: {
        fulfillment: {
          id: 'gid://shopify/Fulfillment/77',
          fulfillmentLineItems: { nodes: [line(6)], pageInfo: LAST_PAGE },
        },
      },
    });

    const state = await fulfillments().readFulfillmentState('5551234');

    expect(more.requests[0]?.query).toContain('query ReadFulfillmentLineItems');
    expect(more.requests[0]?.variables).toEqual({
      id: 'gid://shopify/Fulfillment/77',
      after: 'f5',
    });
    expect(state?.fulfillments[0]?.lineItems.map((l) => l.lineItemId)).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => `gid://shopify/LineItem/${n}`),
    );
    expect(nock.isDone()).toBe(true);
  });

  it('answers hasRemainingLines false once the last page of lines is read', async () => {
    stateAnswer({
      fulfillmentOrders: {
        nodes: [
          fulfillmentOrderNode(11, {
            status: 'CLOSED',
            lineItems: {
              nodes: [{ remainingQuantity: 0 }],
              pageInfo: { hasNextPage: true, endCursor: 'l1' },
            },
          }),
        ],
        pageInfo: LAST_PAGE,
      },
    });
    answer({
      data: {
        fulfillmentOrder: {
          id: 'gid://shopify/FulfillmentOrder/11',
          lineItems: { nodes: [{ remainingQuantity: 0 }], pageInfo: LAST_PAGE },
        },
      },
    });
    const state = await fulfillments().readFulfillmentState('5551234');
    expect(state?.fulfillmentOrders[0]?.hasRemainingLines).toBe(false);
  });

  it('pages fulfillments by creation time when the order has more than the first request held', async () => {
    const firstTen = Array.from({ length: 10 }, (_, i) =>
      fulfillmentNode(100 + i, `2026-11-20T10:0${i}:00Z`),
    );
    stateAnswer({ fulfillmentsCount: { count: 12 }, fulfillments: firstTen });
    const more = answer({
      data: {
        order: {
          id: ORDER_GID,
          // The boundary one again (created at the same time or after), then the two new ones.
          fulfillments: [
            fulfillmentNode(109, '2026-11-20T10:09:00Z'),
            fulfillmentNode(110, '2026-11-20T11:00:00Z'),
            fulfillmentNode(111, '2026-11-20T12:00:00Z'),
          ],
        },
      },
    });

    const state = await fulfillments().readFulfillmentState('5551234');

    expect(more.requests[0]?.query).toContain('query ReadOrderFulfillments');
    expect(more.requests[0]?.variables).toEqual({
      id: ORDER_GID,
      query: "created_at:>='2026-11-20T10:09:00Z'",
    });
    expect(state?.fulfillments).toHaveLength(12);
    expect(new Set(state?.fulfillments.map((f) => f.id)).size).toBe(12);
    expect(nock.isDone()).toBe(true);
  });

  it('fails rather than return part of the fulfillments when a page brings nothing new', async () => {
    const firstTen = Array.from({ length: 10 }, (_, i) =>
      fulfillmentNode(100 + i, `2026-11-20T10:0${i}:00Z`),
    );
    stateAnswer({ fulfillmentsCount: { count: 11 }, fulfillments: firstTen });
    answer({
      data: {
        order: { id: ORDER_GID, fulfillments: [fulfillmentNode(109, '2026-11-20T10:09:00Z')] },
      },
    });

    const error = await fulfillments()
      .readFulfillmentState('5551234')
      .catch((e) => e);

    expect(error).toBeInstanceOf(StoreRequestError);
    expect(error.message).toBe('Order #1003 has 11 fulfillments, but only 10 could be read');
  });

  it('answers null when the order is deleted between two pages', async () => {
    stateAnswer({
      fulfillmentOrders: {
        nodes: [fulfillmentOrderNode(11)],
        pageInfo: { hasNextPage: true, endCursor: 'fo1' },
      },
    });
    answer({ data: { order: null } });
    await expect(fulfillments().readFulfillmentState('5551234')).resolves.toBeNull();
  });

  it('waits out a THROTTLED answer and then reads', async () => {
    const { waits, sleep } = recordingSleep();
    answer(throttledBody({ requested: 159, available: 59, restoreRate: 100 }));
    stateAnswer({});

    const state = await fulfillments(sleep).readFulfillmentState('5551234');

    expect(waits).toEqual([1000]);
    expect(state?.name).toBe('#1003');
  });
});
