import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeStore } from '../../../src/sandbox/store/index.js';
import { requestedQueryCost } from '../../../src/sandbox/store/query-cost.js';
import { fakeAdminSchema } from '../../../src/sandbox/store/schema.js';
import {
  ACCESS_TOKEN,
  control,
  createFulfillment,
  fulfillmentOrders,
  graphql,
  type Json,
  orderGid,
  startStore,
} from './fake-admin.js';

const FULFILLMENTS = /* GraphQL */ `
  query Fulfillments($id: ID!) {
    order(id: $id) {
      displayFulfillmentStatus
      fulfillments(first: 5) {
        id
        status
        displayStatus
        createdAt
        updatedAt
        deliveredAt
        inTransitAt
        totalQuantity
        location { id name }
        trackingInfo(first: 3) { company number url }
        events(first: 10) { nodes { id status happenedAt message } }
        fulfillmentOrders(first: 5) { nodes { id status } }
      }
    }
  }
`;

const FULFIL_LINES = /* GraphQL */ `
  mutation FulfilLines($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment { fulfillmentLineItems(first: 5) { nodes { quantity } } }
      userErrors { field message }
    }
  }
`;

const TRACKING_UPDATE = /* GraphQL */ `
  mutation Tracking($id: ID!, $tracking: FulfillmentTrackingInput!, $notify: Boolean) {
    fulfillmentTrackingInfoUpdate(fulfillmentId: $id, trackingInfoInput: $tracking, notifyCustomer: $notify) {
      fulfillment { id displayStatus trackingInfo(first: 1) { number } }
      userErrors { field message }
    }
  }
`;

const EVENT_CREATE = /* GraphQL */ `
  mutation Event($event: FulfillmentEventInput!) {
    fulfillmentEventCreate(fulfillmentEvent: $event) {
      fulfillmentEvent { id status happenedAt }
      userErrors { field message }
    }
  }
`;

async function fulfillments(store: FakeStore, orderId: string) {
  const data = await graphql(store, FULFILLMENTS, { id: orderGid(orderId) });
  return data.order.fulfillments as Json[];
}

const TRACKING = {
  company: 'PostNord',
  number: 'PN123456789DK',
  url: 'https://tracking.example/PN123456789DK',
};

describe('fake store: fulfillments and what the customer is told', () => {
  let store: FakeStore;

  beforeAll(async () => {
    store = await startStore([
      { id: '8001' },
      { id: '8002' },
      { id: '8003' },
      {
        id: '8004',
        lineItems: [{ title: 'Mug' }, { title: 'Teapot', location: 'Aarhus warehouse' }],
      },
      { id: '8005', lineItems: [{ title: 'Poster', location: "Another app's warehouse" }] },
      { id: '8006' },
      { id: '8007' },
      { id: '8008', lineItems: [{ title: 'Mug', quantity: 3 }] },
    ]);
  });
  afterAll(() => store.close());

  it('creates a fulfillment with tracking, then follows carrier events to DELIVERED', async () => {
    const [fo] = (await fulfillmentOrders(store, '8001')).nodes;
    const created = await createFulfillment(store, [fo.id], {
      trackingInfo: TRACKING,
      notifyCustomer: true,
    });
    const id = created.fulfillmentCreate.fulfillment.id;
    expect(created.fulfillmentCreate.fulfillment).toMatchObject({ displayStatus: 'FULFILLED' });

    const inTransit = await graphql(store, EVENT_CREATE, {
      event: { fulfillmentId: id, status: 'IN_TRANSIT', happenedAt: '2026-11-21T08:00:00Z' },
    });
    expect(inTransit.fulfillmentEventCreate.userErrors).toEqual([]);
    expect((await fulfillments(store, '8001'))[0]).toMatchObject({
      displayStatus: 'IN_TRANSIT',
      inTransitAt: '2026-11-21T08:00:00Z',
      deliveredAt: null,
    });

    await graphql(store, EVENT_CREATE, {
      event: {
        fulfillmentId: id,
        status: 'DELIVERED',
        happenedAt: '2026-11-22T13:30:00Z',
        message: 'Delivered to the parcel box',
      },
    });
    const [delivered] = await fulfillments(store, '8001');
    expect(delivered).toMatchObject({
      id,
      status: 'SUCCESS',
      displayStatus: 'DELIVERED',
      deliveredAt: '2026-11-22T13:30:00Z',
      totalQuantity: 1,
      location: { name: 'Shop location' },
      trackingInfo: [TRACKING],
      fulfillmentOrders: { nodes: [{ id: fo.id, status: 'CLOSED' }] },
    });
    expect(delivered.events.nodes.map((e: Json) => [e.status, e.happenedAt, e.message])).toEqual([
      ['IN_TRANSIT', '2026-11-21T08:00:00Z', null],
      ['DELIVERED', '2026-11-22T13:30:00Z', 'Delivered to the parcel box'],
    ]);
    expect(Date.parse(delivered.updatedAt)).toBeGreaterThanOrEqual(Date.parse(delivered.createdAt));
  });

  it('counts customer emails: a confirmation on create and an update on a tracking change, only when asked', async () => {
    const before = store.notifications.length;
    const [quiet] = (await fulfillmentOrders(store, '8002')).nodes;
    const silent = await createFulfillment(store, [quiet.id], { notifyCustomer: false });
    const silentId = silent.fulfillmentCreate.fulfillment.id;
    expect(silent.fulfillmentCreate.fulfillment.displayStatus).toBe('MARKED_AS_FULFILLED');
    const tracked = await graphql(store, TRACKING_UPDATE, { id: silentId, tracking: TRACKING });
    expect(tracked.fulfillmentTrackingInfoUpdate.fulfillment).toMatchObject({
      displayStatus: 'FULFILLED',
      trackingInfo: [{ number: TRACKING.number }],
    });
    expect(store.notifications.length).toBe(before);

    const [told] = (await fulfillmentOrders(store, '8003')).nodes;
    const created = await createFulfillment(store, [told.id], {
      trackingInfo: TRACKING,
      notifyCustomer: true,
    });
    const id = created.fulfillmentCreate.fulfillment.id;
    await graphql(store, TRACKING_UPDATE, {
      id,
      tracking: { ...TRACKING, number: 'PN999' },
      notify: true,
    });
    const numeric = id.split('/').at(-1);
    expect(store.notifications.slice(before)).toMatchObject([
      { orderId: '8003', fulfillmentId: numeric, kind: 'shipping_confirmation', by: 'app' },
      { orderId: '8003', fulfillmentId: numeric, kind: 'shipping_update', by: 'app' },
    ]);
    const overHttp = await control(store, '/_fake/notifications');
    expect(overHttp.json).toEqual(store.notifications);
    expect(store.mutations.filter((m) => m.orderId === '8003')).toMatchObject([
      { type: 'fulfillmentCreate', notifyCustomer: true },
      { type: 'fulfillmentTrackingInfoUpdate', notifyCustomer: true },
    ]);
  });

  it('answers a request for more than a line has left as set: refused whole by default, or fulfilling what is left', async () => {
    const [fo] = (await fulfillmentOrders(store, '8008')).nodes;
    const moved = await store.moveFulfillmentOrder(fo.id, 'Aarhus warehouse', [
      { title: 'Mug', quantity: 1 },
    ]);
    expect(`gid://shopify/FulfillmentOrder/${moved.id}`).not.toBe(fo.id);
    const [line] = store.order('8008')!.fulfillmentOrders.find((f) => f.id !== moved.id)!.lineItems;
    expect(line).toMatchObject({ totalQuantity: 2, remainingQuantity: 2 });
    const askThree = () =>
      graphql(store, FULFIL_LINES, {
        fulfillment: {
          lineItemsByFulfillmentOrder: [
            {
              fulfillmentOrderId: fo.id,
              fulfillmentOrderLineItems: [
                { id: `gid://shopify/FulfillmentOrderLineItem/${line!.id}`, quantity: 3 },
              ],
            },
          ],
        },
      });

    const refused = await askThree();
    expect(refused.fulfillmentCreate.userErrors[0].message).toBe(
      'Invalid fulfillment order line item quantity requested.',
    );
    expect(store.order('8008')!.fulfillments).toEqual([]);

    store.setOverQuantityAnswer('fulfil-what-is-left');
    try {
      const made = await askThree();
      expect(made.fulfillmentCreate.userErrors).toEqual([]);
      expect(made.fulfillmentCreate.fulfillment.fulfillmentLineItems.nodes).toEqual([
        { quantity: 2 },
      ]);
      expect(store.order('8008')!.fulfillmentOrders.map((f) => f.status)).toEqual([
        'CLOSED',
        'OPEN',
      ]);
    } finally {
      store.setOverQuantityAnswer('refuse');
    }
  });

  it('lets staff fulfil an order without tracking, one fulfillment per merchant location, outside the mutation log', async () => {
    const mutationsBefore = store.mutations.length;
    const fulfilled = await control(store, '/_fake/orders/8004/fulfil', {});
    expect(fulfilled.status).toBe(200);
    expect(fulfilled.json.fulfillments).toMatchObject([
      { displayStatus: 'MARKED_AS_FULFILLED', createdBy: 'staff', trackingInfo: [] },
      { displayStatus: 'MARKED_AS_FULFILLED', createdBy: 'staff', trackingInfo: [] },
    ]);
    const shown = await fulfillments(store, '8004');
    expect(shown.map((f: Json) => f.location.name)).toEqual(['Shop location', 'Aarhus warehouse']);
    expect((await fulfillmentOrders(store, '8004')).status).toBe('FULFILLED');
    expect(store.mutations.length).toBe(mutationsBefore);

    const again = await control(store, '/_fake/orders/8004/fulfil', {});
    expect(again.status).toBe(409);
    expect((await control(store, '/_fake/orders/1/fulfil', {})).status).toBe(404);
    expect((await control(store, '/_fake/orders/8005/fulfil', {})).status).toBe(409);
  });

  it('lets staff fulfil with tracking and tell the customer', async () => {
    const before = store.notifications.length;
    const { fulfillments: made } = await store.fulfil('8006', {
      tracking: { company: 'GLS', number: 'GLS42' },
      notifyCustomer: true,
    });
    expect(made).toMatchObject([
      { displayStatus: 'FULFILLED', trackingInfo: [{ number: 'GLS42' }] },
    ]);
    expect(store.notifications.slice(before)).toMatchObject([
      { orderId: '8006', kind: 'shipping_confirmation', by: 'staff' },
    ]);
  });

  it('applies a mutation and loses its answer (502, then a reset connection), so the client cannot know', async () => {
    const [fo] = (await fulfillmentOrders(store, '8007')).nodes;
    await control(store, '/_fake/drop-answers', { count: 1, operation: 'fulfillmentCreate' });

    // A query passes untouched.
    expect((await fulfillmentOrders(store, '8007')).nodes).toHaveLength(1);
    const send = () =>
      fetch(`${store.url}/admin/api/2026-10/graphql.json`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': ACCESS_TOKEN },
        body: JSON.stringify({
          query: /* GraphQL */ `mutation Fulfil($id: ID!) {
            fulfillmentCreate(fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: $id }] }) {
              fulfillment { id } userErrors { message }
            }
          }`,
          variables: { id: fo.id },
        }),
      });
    const lost = await send();
    expect(lost.status).toBe(502);
    expect(await fulfillments(store, '8007')).toHaveLength(1);
    expect(store.requests.at(-2)).toMatchObject({
      rootFields: ['fulfillmentCreate'],
      outcome: 'answer_lost',
    });

    // A second try is answered, and Shopify refuses it: the fulfillment exists already.
    const retried = (await (await send()).json()) as Json;
    expect(retried.data.fulfillmentCreate.userErrors[0].message).toMatch(/status= closed\.$/);

    store.dropNextAnswers({ count: 1, how: 'connection_reset' });
    const tagged = fetch(`${store.url}/admin/api/2026-10/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': ACCESS_TOKEN },
      body: JSON.stringify({
        query:
          'mutation { tagsAdd(id: "gid://shopify/Order/8007", tags: ["lost"]) { userErrors { message } } }',
      }),
    });
    await expect(tagged).rejects.toThrow();
    expect(store.order('8007')?.tags).toContain('lost');
    expect(store.mutations.filter((m) => m.orderId === '8007').map((m) => m.type)).toEqual([
      'fulfillmentCreate',
      'tagsAdd',
    ]);
  });

  it('costs a status sync query like Shopify: connections 2 + first × node, lists once per item', () => {
    const cost = requestedQueryCost(fakeAdminSchema, parse(FULFILLMENTS));
    // order 1 + fulfillments 5 × (1 + location 1 + trackingInfo 3 × 1 + events (2 + 10 × 1) +
    // fulfillmentOrders (2 + 5 × 1))
    expect(cost).toBe(1 + 5 * (1 + 1 + 3 + 12 + 7));
    const orders = requestedQueryCost(
      fakeAdminSchema,
      parse(/* GraphQL */ `{
        order(id: "gid://shopify/Order/1") {
          fulfillmentOrders(first: 10) {
            nodes { assignedLocation { location { id } } supportedActions { action } fulfillmentHolds { reason } }
          }
        }
      }`),
    );
    // order 1 + (2 + 10 × (1 + assignedLocation 2 + supportedActions 1 + fulfillmentHolds 1))
    expect(orders).toBe(1 + 2 + 10 * 5);
  });
});
