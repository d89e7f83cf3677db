import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreNotFoundError, StoreUserError } from '../../src/store/errors.js';
import { createFulfillments } from '../../src/store/fulfillments/fulfillments.js';
import { recordingSleep, testTransport, throttledBody } from './helpers.js';
import { answer } from './nock-graphql.js';

const fulfillments = (sleep?: (ms: number) => Promise<void>) =>
  createFulfillments(testTransport(sleep ? { sleep } : {}));

afterEach(() => {
  nock.cleanAll();
});

const refusedCreate = (message: string) =>
  answer({
    data: {
      fulfillmentCreate: {
        fulfillment: null,
        userErrors: [{ field: ['fulfillment'], message }],
      },
    },
  });

const createAtOneLocation = () =>
  fulfillments().createFulfillment({
    orderId: '5551234',
    fulfillmentOrderIds: ['gid://shopify/FulfillmentOrder/11', 'gid://shopify/FulfillmentOrder/12'],
    tracking: { company: 'Partner', number: 'TRK1', url: 'https://track.example/TRK1' },
    notifyCustomer: true,
  });

describe('createFulfillment for named fulfillment orders', () => {
  it('sends them, tracking and notifyCustomer in one call without reading the order', async () => {
    const create = answer({
      data: {
        fulfillmentCreate: {
          fulfillment: {
            id: 'gid://shopify/Fulfillment/77',
            status: 'SUCCESS',
            trackingInfo: [
              { company: 'Partner', number: 'TRK1', url: 'https://track.example/TRK1' },
            ],
            fulfillmentLineItems: { nodes: [], pageInfo: { hasNextPage: false } },
          },
          userErrors: [],
        },
      },
    });

    const fulfillment = await createAtOneLocation();

    expect(create.requests).toHaveLength(1);
    expect(create.requests[0]?.variables).toEqual({
      fulfillment: {
        lineItemsByFulfillmentOrder: [
          { fulfillmentOrderId: 'gid://shopify/FulfillmentOrder/11' },
          { fulfillmentOrderId: 'gid://shopify/FulfillmentOrder/12' },
        ],
        trackingInfo: { company: 'Partner', number: 'TRK1', url: 'https://track.example/TRK1' },
        notifyCustomer: true,
      },
    });
    expect(fulfillment.id).toBe('gid://shopify/Fulfillment/77');
  });
});

describe("Shopify's known refusals of fulfillment writes", () => {
  it('says a closed fulfillment order was already fulfilled or cancelled', async () => {
    refusedCreate(
      'Fulfillment order gid://shopify/FulfillmentOrder/11 has an unfulfillable status= closed.',
    );
    const error = await createAtOneLocation().catch((e) => e);
    expect(error).toBeInstanceOf(StoreUserError);
    expect(error.refusal).toBe('fulfillment_order_closed');
    expect(error.message).toBe(
      'Shopify refused CreateFulfillment: the fulfillment order is already closed: it was fulfilled or cancelled in Shopify (Shopify said: "fulfillment: Fulfillment order gid://shopify/FulfillmentOrder/11 has an unfulfillable status= closed.")',
    );
  });

  it('says the call spanned locations', async () => {
    refusedCreate('All fulfillment orders must be assigned to a single location');
    const error = await createAtOneLocation().catch((e) => e);
    expect(error.refusal).toBe('spans_locations');
    expect(error.message).toContain(
      'the call named fulfillment orders at more than one location; Shopify fulfils one location per call',
    );
  });

  it('says another app or a fulfillment service owns it, or it is already fulfilled', async () => {
    refusedCreate('Cannot create fulfillment for the fulfillment order.');
    const error = await createAtOneLocation().catch((e) => e);
    expect(error.refusal).toBe('not_fulfillable_by_app');
    expect(error.message).toContain(
      'another app or a fulfillment service owns it, or it is already fulfilled',
    );
  });

  it('explains the known one among several and counts the others', async () => {
    answer({
      data: {
        fulfillmentCreate: {
          fulfillment: null,
          userErrors: [
            { field: null, message: 'Something else' },
            {
              field: null,
              message: 'All fulfillment orders must be assigned to a single location',
            },
          ],
        },
      },
    });
    const error = await createAtOneLocation().catch((e) => e);
    expect(error.refusal).toBe('spans_locations');
    expect(error.message).toMatch(/single location"\) \(and 1 more\)$/);
    expect(error.userErrors).toHaveLength(2);
  });

  it("keeps Shopify's words for a refusal it does not know", async () => {
    refusedCreate('Tracking number is too long');
    const error = await createAtOneLocation().catch((e) => e);
    expect(error.refusal).toBeUndefined();
    expect(error.message).toBe(
      'Shopify refused CreateFulfillment: fulfillment: Tracking number is too long',
    );
  });

  it('explains them for tracking updates too', async () => {
    answer({
      data: {
        fulfillmentTrackingInfoUpdate: {
          fulfillment: null,
          userErrors: [
            { field: null, message: 'Cannot create fulfillment for the fulfillment order.' },
          ],
        },
      },
    });
    const error = await fulfillments()
      .updateFulfillmentTracking('77', { company: 'Partner', number: 'TRK2' })
      .catch((e) => e);
    expect(error.refusal).toBe('not_fulfillable_by_app');
  });
});

describe('reportFulfillmentOrderProgress', () => {
  const progressAnswer = (userErrors: unknown[], status = 'IN_PROGRESS') =>
    answer({
      data: {
        fulfillmentOrderReportProgress: {
          fulfillmentOrder:
            userErrors.length === 0 ? { id: 'gid://shopify/FulfillmentOrder/11', status } : null,
          userErrors,
        },
      },
    });

  it('reports progress with the notes on a numeric or gid fulfillment order id', async () => {
    const first = progressAnswer([]);
    const second = progressAnswer([]);
    const client = fulfillments();

    await client.reportFulfillmentOrderProgress('11', 'Registered with the carrier as 8812');
    await client.reportFulfillmentOrderProgress('gid://shopify/FulfillmentOrder/11', '  ');

    expect(first.requests[0]?.query).toContain('mutation ReportFulfillmentOrderProgress');
    expect(first.requests[0]?.variables).toEqual({
      id: 'gid://shopify/FulfillmentOrder/11',
      progressReport: { reasonNotes: 'Registered with the carrier as 8812' },
    });
    // Blank notes are left out rather than sent empty.
    expect(second.requests[0]?.variables).toEqual({
      id: 'gid://shopify/FulfillmentOrder/11',
      progressReport: {},
    });
  });

  it("cuts notes to Shopify's 256 characters", async () => {
    const report = progressAnswer([]);
    await fulfillments().reportFulfillmentOrderProgress('11', 'x'.repeat(300));
    const sent = report.requests[0]?.variables?.progressReport as { reasonNotes: string };
    expect(sent.reasonNotes).toHaveLength(256);
  });

  it('throws StoreNotFoundError for a fulfillment order the store does not have', async () => {
    progressAnswer([
      {
        field: ['id'],
        message: 'Fulfillment order does not exist.',
        code: 'FULFILLMENT_ORDER_NOT_FOUND',
      },
    ]);
    await expect(
      fulfillments().reportFulfillmentOrderProgress('11', 'notes'),
    ).rejects.toBeInstanceOf(StoreNotFoundError);
  });

  it('explains a fulfillment order in the wrong status', async () => {
    progressAnswer([
      {
        field: ['id'],
        message: 'Fulfillment order status is invalid.',
        code: 'FULFILLMENT_ORDER_STATUS_INVALID',
      },
    ]);
    const error = await fulfillments()
      .reportFulfillmentOrderProgress('11', 'notes')
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreUserError);
    expect(error.refusal).toBe('fulfillment_order_status_invalid');
    expect(error.message).toContain('only on an OPEN or IN_PROGRESS fulfillment order');
  });

  it("explains one a fulfillment service owns, and one whose actions don't include it", async () => {
    progressAnswer([
      {
        field: ['id'],
        message: 'Invalid fulfillment service ownership.',
        code: 'FULFILLMENT_ORDER_INVALID_FULFILLMENT_SERVICE_OWNERSHIP',
      },
    ]);
    progressAnswer([
      {
        field: ['id'],
        message: 'Action not supported.',
        code: 'FULFILLMENT_ORDER_UNSUPPORTED_ACTION',
      },
    ]);
    const client = fulfillments();
    const owned = await client.reportFulfillmentOrderProgress('11', 'n').catch((e) => e);
    const unsupported = await client.reportFulfillmentOrderProgress('11', 'n').catch((e) => e);
    expect(owned.refusal).toBe('fulfillment_service_owned');
    expect(unsupported.refusal).toBe('action_not_supported');
  });

  it('waits out a 429 and then reports', async () => {
    const { waits, sleep } = recordingSleep();
    nock('https://demo.myshopify.com')
      .post('/admin/api/2026-10/graphql.json')
      .reply(429, throttledBody({ requested: 10, available: 0, restoreRate: 100 }), {
        'Retry-After': '2',
      });
    const report = progressAnswer([]);

    await fulfillments(sleep).reportFulfillmentOrderProgress('11', 'notes');

    expect(waits).toEqual([2000]);
    expect(report.requests).toHaveLength(1);
  });
});

describe('an answer to a write that also sets the status', () => {
  const orderStatus = { orderId: '5551234', metafields: [] };

  it('is unexpected without the status half, refused write or not', async () => {
    answer({
      data: {
        fulfillmentEventCreate: { fulfillmentEvent: null, userErrors: [{ message: 'm' }] },
      },
    });
    const error = await fulfillments()
      .createFulfillmentEvent('77', 'IN_TRANSIT', { orderStatus })
      .catch((e) => e);
    expect(error.message).toMatch(
      /CreateFulfillmentEventWithStatus has an unexpected shape \(at orderUpdate\)/,
    );
  });

  it('reports a fulfillment order the store does not have, whatever its id', async () => {
    answer({
      data: {
        fulfillmentOrderReportProgress: {
          fulfillmentOrder: null,
          userErrors: [{ field: ['id'], message: 'missing', code: 'FULFILLMENT_ORDER_NOT_FOUND' }],
        },
      },
    });
    const error = await fulfillments()
      .reportFulfillmentOrderProgress('', 'x')
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreNotFoundError);
  });
});
