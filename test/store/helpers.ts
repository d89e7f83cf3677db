import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/log.js';
import type { FakeOrderInput } from '../../src/sandbox/store/model.js';
import { startFakeStore } from '../../src/sandbox/store/server.js';
import { type AdminClientOptions, createStoreClient } from '../../src/store/client.js';
import { createAdminTransport } from '../../src/store/transport/admin-transport.js';

export const SHOP = 'demo.myshopify.com';
export const SHOP_ORIGIN = `https://${SHOP}`;
export const GRAPHQL_PATH = '/admin/api/2026-10/graphql.json';
export const ACCESS_TOKEN = 'shpat_test_token_123';
export const WEBHOOK_SECRET = 'whsec_test_secret';

/** A logger that keeps every line, so tests can assert what was (not) logged. */
export function capturingLogger(level = 'debug'): { logger: Logger; lines: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger({ level }, stream), lines: () => chunks.join('') };
}

export const silentLogger = createLogger({ level: 'silent' });

/** Records requested sleeps and returns at once, so waits are asserted, not slept. */
export function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

function testOptions(overrides: Partial<AdminClientOptions>): AdminClientOptions {
  return {
    shop: SHOP,
    auth: { kind: 'accessToken', accessToken: ACCESS_TOKEN },
    apiVersion: '2026-10',
    webhookSecret: WEBHOOK_SECRET,
    logger: silentLogger,
    sleep: async () => {},
    ...overrides,
  };
}

/** Every capability over one transport, as the composition root builds it. */
export function testClient(overrides: Partial<AdminClientOptions> = {}) {
  return createStoreClient(testOptions(overrides));
}

/** A transport alone, to build one capability on (e.g. `createOrderMarks(testTransport())`). */
export function testTransport(overrides: Partial<AdminClientOptions> = {}) {
  return createAdminTransport(testOptions(overrides));
}

/** What the fake store accepts for client credentials. */
export const FAKE_CLIENT_ID = 'fake-client';
export const FAKE_CLIENT_SECRET = 'fake-client-secret';

/** A fake store over HTTP: https://{shop} is unreachable under nock. */
export function startTestStore(orders?: FakeOrderInput[]) {
  return startFakeStore({
    shop: SHOP,
    accessToken: ACCESS_TOKEN,
    webhookSecret: WEBHOOK_SECRET,
    clientId: FAKE_CLIENT_ID,
    clientSecret: FAKE_CLIENT_SECRET,
    ...(orders ? { orders } : {}),
  });
}

/** An order as the Admin API answers the StoreOrderFields fragment. */
export function orderNode(overrides: Record<string, unknown> = {}) {
  return {
    id: 'gid://shopify/Order/5551234',
    name: '#1001',
    createdAt: '2026-11-20T09:15:00Z',
    updatedAt: '2026-11-20T09:20:00Z',
    test: false,
    cancelledAt: null,
    displayFinancialStatus: 'PAID',
    displayFulfillmentStatus: 'UNFULFILLED',
    tags: ['vip'],
    shipmentOrderNumber: null,
    email: 'mette@example.dk',
    phone: '+4520123456',
    shipmentError: null,
    shippingAddress: {
      name: 'Mette Hansen',
      company: null,
      phone: '+4520123456',
      address1: 'Nørrebrogade 12',
      address2: '2. th',
      city: 'København N',
      zip: '2200',
      countryCodeV2: 'DK',
    },
    lineItems: {
      nodes: [
        {
          id: 'gid://shopify/LineItem/11',
          title: 'Wool blanket',
          currentQuantity: 2,
          unfulfilledQuantity: 2,
          requiresShipping: true,
          product: { productType: 'Textiles' },
          variant: {
            inventoryItem: { measurement: { weight: { unit: 'GRAMS', value: 1200 } } },
          },
        },
        {
          id: 'gid://shopify/LineItem/12',
          title: 'Gift card',
          currentQuantity: 1,
          unfulfilledQuantity: 1,
          requiresShipping: false,
          product: { productType: '' },
          variant: { inventoryItem: { measurement: { weight: { unit: 'GRAMS', value: 0 } } } },
        },
      ],
      pageInfo: { hasNextPage: false, endCursor: 'li-2' },
    },
    fulfillmentOrders: {
      nodes: [
        {
          id: 'gid://shopify/FulfillmentOrder/21',
          status: 'OPEN',
          fulfillAt: null,
          supportedActions: [{ action: 'CREATE_FULFILLMENT' }, { action: 'HOLD' }],
          assignedLocation: {
            name: 'Shop location',
            location: { id: 'gid://shopify/Location/31', isFulfillmentService: false },
          },
          deliveryMethod: { methodType: 'SHIPPING' },
          fulfillmentHolds: [],
          lineItems: {
            nodes: [
              {
                id: 'gid://shopify/FulfillmentOrderLineItem/41',
                totalQuantity: 2,
                remainingQuantity: 2,
                lineItem: { id: 'gid://shopify/LineItem/11' },
              },
              {
                id: 'gid://shopify/FulfillmentOrderLineItem/42',
                totalQuantity: 1,
                remainingQuantity: 1,
                lineItem: { id: 'gid://shopify/LineItem/12' },
              },
            ],
            pageInfo: { hasNextPage: false, endCursor: 'fl-2' },
          },
        },
      ],
      pageInfo: { hasNextPage: false, endCursor: 'fo-1' },
    },
    ...overrides,
  };
}

/** An order as the Admin API answers a ListOrdersUpdatedSince node: header fields only. */
export function orderSummaryNode(overrides: Record<string, unknown> = {}) {
  return {
    id: 'gid://shopify/Order/5551234',
    name: '#1001',
    createdAt: '2026-11-20T09:15:00Z',
    updatedAt: '2026-11-20T09:20:00Z',
    test: false,
    cancelledAt: null,
    displayFinancialStatus: 'PAID',
    displayFulfillmentStatus: 'UNFULFILLED',
    tags: ['vip'],
    shipmentOrderNumber: null,
    requiresShipping: true,
    ...overrides,
  };
}

/** Shopify's THROTTLED answer: HTTP 200, an error with code THROTTLED, and the bucket state. */
export function throttledBody(cost: { requested: number; available: number; restoreRate: number }) {
  return {
    errors: [
      {
        message: 'Throttled',
        extensions: {
          code: 'THROTTLED',
          documentation: 'https://shopify.dev/api/usage/rate-limits',
        },
      },
    ],
    extensions: {
      cost: {
        requestedQueryCost: cost.requested,
        actualQueryCost: null,
        throttleStatus: {
          maximumAvailable: 2000,
          currentlyAvailable: cost.available,
          restoreRate: cost.restoreRate,
        },
      },
    },
  };
}
