import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeStore } from '../../src/sandbox/store/index.js';
import { createFulfillments } from '../../src/store/fulfillments/fulfillments.js';
import { createOrderMarks } from '../../src/store/order-marks/order-marks.js';
import { createOrderReader } from '../../src/store/orders/order-reader.js';
import { createStoreSetup } from '../../src/store/setup/setup.js';
import {
  FAKE_CLIENT_ID,
  FAKE_CLIENT_SECRET,
  startTestStore,
  testClient,
  testTransport,
} from './helpers.js';

const methods = (capability: object) => Object.keys(capability).sort();

describe('the store client', () => {
  it('is the four capabilities, none sharing a method with another, and nothing more', () => {
    const transport = testTransport();
    const reading = methods(createOrderReader(transport));
    const marking = methods(createOrderMarks(transport));
    const fulfilling = methods(createFulfillments(transport));
    const setup = methods(createStoreSetup(transport));

    expect(reading).toEqual([
      'findOrderByName',
      'findOrders',
      'getOrder',
      'listOrdersUpdatedSince',
    ]);
    expect(marking).toEqual([
      'addOrderTags',
      'appendOrderNote',
      'deleteOrderMetafields',
      'readOrderMarks',
      'removeOrderTags',
      'setOrderMetafields',
      'writeOrderMarks',
    ]);
    expect(fulfilling).toEqual([
      'createFulfillment',
      'createFulfillmentEvent',
      'getFulfillmentOrders',
      'readFulfillmentOrders',
      'readFulfillmentState',
      'reportFulfillmentOrderProgress',
      'updateFulfillmentTracking',
    ]);
    expect(setup).toEqual([
      'createOrderMetafieldDefinition',
      'createWebhookSubscription',
      'grantedScopes',
      'listOrderMetafieldDefinitions',
      'listWebhookSubscriptions',
      'merchantLocations',
      'shopIdentity',
      'updateWebhookSubscription',
    ]);
    // A method two capabilities shared would silently shadow one of them in the aggregate.
    expect(methods(testClient())).toEqual([...reading, ...marking, ...fulfilling, ...setup].sort());
  });
});

describe('the store client against the fake store', () => {
  let store: FakeStore;
  beforeAll(async () => {
    store = await startTestStore();
  });
  afterAll(() => store.close());

  it('sends every capability through one transport: one token to read, mark and fulfil', async () => {
    const client = testClient({
      adminApiUrl: store.url,
      auth: {
        kind: 'clientCredentials',
        clientId: FAKE_CLIENT_ID,
        clientSecret: FAKE_CLIENT_SECRET,
      },
    });
    const tokensBefore = store.tokenRequests;
    const requestsBefore = store.requests.length;

    await client.getOrder('5550001');
    await client.addOrderTags('5550001', ['shipment-registered']);
    await client.getFulfillmentOrders('5550001');

    expect(store.tokenRequests - tokensBefore).toBe(1);
    expect(store.requests.slice(requestsBefore).map((r) => [r.operationName, r.outcome])).toEqual([
      ['GetOrder', 'ok'],
      ['AddOrderTags', 'ok'],
      ['GetFulfillmentOrders', 'ok'],
    ]);
  });
});
