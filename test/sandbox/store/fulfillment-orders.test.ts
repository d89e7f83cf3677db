import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCESS_SCOPES, type FakeStore } from '../../../src/sandbox/store/index.js';
import {
  ACCESS_TOKEN,
  actionsOf,
  control,
  createFulfillment,
  FULFILLMENT_CREATE,
  fulfillmentOrders,
  graphql,
  type Json,
  startStore,
} from './fake-admin.js';

const REPORT_PROGRESS = /* GraphQL */ `
  mutation Report($id: ID!, $notes: String) {
    fulfillmentOrderReportProgress(id: $id, progressReport: { reasonNotes: $notes }) {
      fulfillmentOrder { id status supportedActions { action } }
      userErrors { field message code }
    }
  }
`;

describe('fake store: fulfillment orders as a merchant app sees them', () => {
  let store: FakeStore;

  beforeAll(async () => {
    store = await startStore([
      { id: '7001' },
      {
        id: '7002',
        lineItems: [
          { title: 'Mug', location: 'Shop location' },
          { title: 'Teapot', location: 'Aarhus warehouse' },
        ],
      },
      {
        id: '7003',
        lineItems: [
          { title: 'Mug' },
          { title: 'Print on demand poster', location: "Another app's warehouse" },
        ],
      },
      {
        id: '7004',
        fulfillmentOrders: [
          { hold: { reason: 'INCORRECT_ADDRESS', reasonNotes: 'Street number missing' } },
        ],
      },
      { id: '7005', fulfillmentOrders: [{ fulfillAt: '2026-12-24T08:00:00Z' }] },
      { id: '7006' },
      { id: '7007', lineItems: [{ title: 'Vase', quantity: 2 }] },
      { id: '7008' },
      { id: '7009', lineItems: [{ title: 'Gift card', requiresShipping: false }] },
      { id: '7010' },
      { id: '7011', lineItems: [{ title: 'Mug' }, { title: 'Vase', quantity: 2 }] },
      { id: '7012' },
      { id: '7013', fulfillmentOrders: [{ fulfilmentOffered: false }] },
      {
        id: '7014',
        createdAt: '2026-11-01T09:00:00Z',
        lineItems: [{ title: 'Coffee box', quantity: 3 }],
        fulfillmentOrders: [
          {
            deliveries: ['2026-11-01T09:00:00Z', '2026-12-01T09:00:00Z', '2027-01-01T09:00:00Z'],
          },
        ],
      },
    ]);
  });
  afterAll(() => store.close());

  it('keeps one OPEN fulfillment order at "Shop location" by default, with the merchant app actions', async () => {
    const { status, nodes } = await fulfillmentOrders(store, '7001');
    expect(status).toBe('UNFULFILLED');
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({
      status: 'OPEN',
      requestStatus: 'UNSUBMITTED',
      fulfillAt: null,
      assignedLocation: { name: 'Shop location', location: { isFulfillmentService: false } },
      fulfillmentHolds: [],
    });
    expect(actionsOf(nodes[0])).toEqual(['CREATE_FULFILLMENT', 'REPORT_PROGRESS', 'HOLD', 'MOVE']);
    expect((await fulfillmentOrders(store, '7009')).nodes).toEqual([]);
  });

  it('splits lines over two merchant locations into two fulfillment orders, fulfilled one call each', async () => {
    const { nodes } = await fulfillmentOrders(store, '7002');
    expect(nodes.map((fo: Json) => fo.assignedLocation.name)).toEqual([
      'Shop location',
      'Aarhus warehouse',
    ]);
    expect(nodes.map((fo: Json) => fo.lineItems.nodes[0].lineItem.title)).toEqual([
      'Mug',
      'Teapot',
    ]);

    const both = await createFulfillment(
      store,
      nodes.map((fo: Json) => fo.id),
    );
    expect(both.fulfillmentCreate).toEqual({
      fulfillment: null,
      userErrors: [
        {
          field: ['fulfillment', 'lineItemsByFulfillmentOrder'],
          message: 'All fulfillment orders must be assigned to a single location.',
        },
      ],
    });

    const first = await createFulfillment(store, [nodes[0].id]);
    expect(first.fulfillmentCreate.fulfillment).toMatchObject({
      status: 'SUCCESS',
      location: { name: 'Shop location' },
    });
    expect((await fulfillmentOrders(store, '7002')).status).toBe('PARTIALLY_FULFILLED');
    await createFulfillment(store, [nodes[1].id]);
    const after = await fulfillmentOrders(store, '7002');
    expect(after.status).toBe('FULFILLED');
    expect(after.nodes.map((fo: Json) => fo.status)).toEqual(['CLOSED', 'CLOSED']);
    expect(after.nodes.map(actionsOf)).toEqual([[], []]);
  });

  it('answers fulfillment orders by id with nodes(ids:): null for an unknown one or one the scopes hide', async () => {
    const NODES = /* GraphQL */ `
      query Nodes($ids: [ID!]!) {
        nodes(ids: $ids) {
          ... on FulfillmentOrder { id status assignedLocation { name } }
        }
      }
    `;
    const [mug, service] = store.order('7003')!.fulfillmentOrders;
    const ids = [mug!.id, service!.id, '999999'].map(
      (id) => `gid://shopify/FulfillmentOrder/${id}`,
    );
    const { nodes } = await graphql(store, NODES, { ids });
    expect(nodes).toEqual([
      { id: ids[0], status: 'OPEN', assignedLocation: { name: 'Shop location' } },
      null,
      null,
    ]);
  });

  it("offers only REQUEST_FULFILLMENT at a fulfillment service's location and refuses to fulfil it", async () => {
    // Shopify shows fulfillment orders at another app's location only with the third-party scope.
    const hidden = await fulfillmentOrders(store, '7003');
    expect(hidden.nodes.map((fo: Json) => fo.assignedLocation.name)).toEqual(['Shop location']);
    store.setAccessScopes([...DEFAULT_ACCESS_SCOPES, 'read_third_party_fulfillment_orders']);
    const { nodes } = await fulfillmentOrders(store, '7003');
    store.setAccessScopes(DEFAULT_ACCESS_SCOPES);
    const service = nodes.find((fo: Json) => fo.assignedLocation.location.isFulfillmentService);
    expect(service.assignedLocation.name).toBe("Another app's warehouse");
    expect(actionsOf(service)).toContain('REQUEST_FULFILLMENT');
    expect(actionsOf(service)).not.toContain('CREATE_FULFILLMENT');
    expect(actionsOf(service)).not.toContain('REPORT_PROGRESS');

    const refused = await createFulfillment(store, [service.id]);
    expect(refused.fulfillmentCreate).toEqual({
      fulfillment: null,
      userErrors: [
        {
          field: ['fulfillment', 'lineItemsByFulfillmentOrder', '0', 'fulfillmentOrderId'],
          message: 'Cannot create fulfillment for the fulfillment order.',
        },
      ],
    });
    const report = await graphql(store, REPORT_PROGRESS, { id: service.id });
    expect(report.fulfillmentOrderReportProgress.userErrors[0].code).toBe(
      'FULFILLMENT_ORDER_INVALID_FULFILLMENT_SERVICE_OWNERSHIP',
    );
    expect(store.mutations.filter((m) => m.orderId === '7003')).toEqual([]);
  });

  it('shows an order on hold with its reason, refuses to fulfil it, and fulfils it once staff release the hold', async () => {
    const held = await fulfillmentOrders(store, '7004');
    expect(held.status).toBe('ON_HOLD');
    const [fo] = held.nodes;
    expect(fo).toMatchObject({
      status: 'ON_HOLD',
      fulfillmentHolds: [
        {
          reason: 'INCORRECT_ADDRESS',
          reasonNotes: 'Street number missing',
          displayReason: 'Incorrect address',
          heldByRequestingApp: false,
        },
      ],
    });
    expect(actionsOf(fo)).toEqual(['RELEASE_HOLD']);

    const refused = await createFulfillment(store, [fo.id]);
    expect(refused.fulfillmentCreate.userErrors).toEqual([
      {
        field: ['fulfillment', 'lineItemsByFulfillmentOrder', '0', 'fulfillmentOrderId'],
        message: `Fulfillment order ${fo.id} has an unfulfillable status= on_hold.`,
      },
    ]);
    const report = await graphql(store, REPORT_PROGRESS, { id: fo.id });
    expect(report.fulfillmentOrderReportProgress).toEqual({
      fulfillmentOrder: null,
      userErrors: [
        {
          field: ['id'],
          message: 'Cannot report progress on a fulfillment order with status on_hold.',
          code: 'FULFILLMENT_ORDER_STATUS_INVALID',
        },
      ],
    });

    const numericId = fo.id.split('/').at(-1);
    const released = await control(
      store,
      `/_fake/fulfillment-orders/${numericId}/release-hold`,
      {},
    );
    expect(released.status).toBe(200);
    expect(released.json.fulfillmentOrder).toMatchObject({ status: 'OPEN', holds: [] });
    const open = await fulfillmentOrders(store, '7004');
    expect(open.status).toBe('UNFULFILLED');
    expect(actionsOf(open.nodes[0])).toContain('CREATE_FULFILLMENT');
    expect((await createFulfillment(store, [fo.id])).fulfillmentCreate.userErrors).toEqual([]);

    const again = await control(store, `/_fake/fulfillment-orders/${numericId}/release-hold`, {});
    expect(again.status).toBe(409);
  });

  it('shows an open fulfillment order Shopify offers no action on, refuses to fulfil it, and fulfils it once offered', async () => {
    const { nodes } = await fulfillmentOrders(store, '7013');
    const [fo] = nodes;
    expect(fo.status).toBe('OPEN');
    expect(actionsOf(fo)).toEqual([]);
    const refused = await createFulfillment(store, [fo.id]);
    expect(refused.fulfillmentCreate.userErrors).toEqual([
      {
        field: ['fulfillment', 'lineItemsByFulfillmentOrder', '0', 'fulfillmentOrderId'],
        message: 'Cannot create fulfillment for the fulfillment order.',
      },
    ]);
    const report = await graphql(store, REPORT_PROGRESS, { id: fo.id });
    expect(report.fulfillmentOrderReportProgress.userErrors[0].code).toBe(
      'FULFILLMENT_ORDER_UNSUPPORTED_ACTION',
    );
    const before = store.order('7013')!.updatedAt;

    store.offerFulfilment(fo.id, true);
    const offered = await fulfillmentOrders(store, '7013');
    expect(actionsOf(offered.nodes[0])).toContain('CREATE_FULFILLMENT');
    expect(store.order('7013')!.updatedAt).toBe(before);
    expect((await createFulfillment(store, [fo.id])).fulfillmentCreate.userErrors).toEqual([]);
  });

  it('lets staff put an open fulfillment order on hold', async () => {
    const [fo] = (await fulfillmentOrders(store, '7008')).nodes;
    const held = await control(store, `/_fake/fulfillment-orders/${fo.id.split('/').at(-1)}/hold`, {
      reason: 'high_risk_of_fraud',
    });
    expect(held.status).toBe(200);
    const after = await fulfillmentOrders(store, '7008');
    expect(after.status).toBe('ON_HOLD');
    expect(after.nodes[0].fulfillmentHolds).toMatchObject([
      { reason: 'HIGH_RISK_OF_FRAUD', reasonNotes: null, displayReason: 'High risk of fraud' },
    ]);
    await store.releaseHold(fo.id);
    expect((await fulfillmentOrders(store, '7008')).nodes[0].status).toBe('OPEN');
  });

  it('moves a fulfillment order staff move with nothing fulfilled, keeping its id', async () => {
    const [fo] = store.order('7010')!.fulfillmentOrders;
    const aarhus = store.locations().find((l) => l.name === 'Aarhus warehouse')!;
    const moved = await store.moveFulfillmentOrder(fo!.id, aarhus.name);
    expect(moved).toMatchObject({ id: fo!.id, locationId: aarhus.id, status: 'OPEN' });
    expect(store.order('7010')!.fulfillmentOrders).toHaveLength(1);
  });

  it('moves what is left of a partly fulfilled one to a new fulfillment order, closing the original', async () => {
    await store.fulfil('7011', { lines: [{ title: 'Vase', quantity: 1 }] }, { sendWebhook: false });
    const [fo] = store.order('7011')!.fulfillmentOrders;
    const moved = await store.moveFulfillmentOrder(fo!.id, 'Aarhus warehouse');
    const [original, created, ...more] = store.order('7011')!.fulfillmentOrders;
    expect(more).toEqual([]);
    expect(created!.id).toBe(moved.id);
    expect(original).toMatchObject({ id: fo!.id, status: 'CLOSED' });
    expect(original!.lineItems.map((l) => [l.totalQuantity, l.remainingQuantity])).toEqual([
      [1, 0],
    ]);
    expect(moved.lineItems.map((l) => [l.totalQuantity, l.remainingQuantity])).toEqual([
      [1, 1],
      [1, 1],
    ]);
    // The old lines cannot be fulfilled any more; the new ones can.
    const stale = await graphql(store, FULFILLMENT_CREATE, {
      fulfillment: {
        lineItemsByFulfillmentOrder: [
          { fulfillmentOrderId: `gid://shopify/FulfillmentOrder/${fo!.id}` },
        ],
      },
    });
    expect(stale.fulfillmentCreate.userErrors).toHaveLength(1);
  });

  it('refuses to move a fulfillment order with progress reported, or a closed one', async () => {
    const [fo] = store.order('7012')!.fulfillmentOrders;
    await graphql(store, REPORT_PROGRESS, { id: `gid://shopify/FulfillmentOrder/${fo!.id}` });
    await expect(store.moveFulfillmentOrder(fo!.id, 'Aarhus warehouse')).rejects.toThrow(
      /progress reported/,
    );
    const [closed] = store.order('7011')!.fulfillmentOrders;
    await expect(store.moveFulfillmentOrder(closed!.id, 'Shop location')).rejects.toThrow(/CLOSED/);
  });

  it('shows a scheduled fulfillment order with fulfillAt and MARK_AS_OPEN only', async () => {
    const { status, nodes } = await fulfillmentOrders(store, '7005');
    expect(status).toBe('SCHEDULED');
    expect(nodes[0]).toMatchObject({ status: 'SCHEDULED', fulfillAt: '2026-12-24T08:00:00Z' });
    expect(actionsOf(nodes[0])).toEqual(['MARK_AS_OPEN']);
    const refused = await createFulfillment(store, [nodes[0].id]);
    expect(refused.fulfillmentCreate.userErrors[0].message).toMatch(
      /has an unfulfillable status= scheduled\.$/,
    );
  });

  it('splits a prepaid subscription into one fulfillment order a delivery: the first open, the others scheduled', async () => {
    const { status, nodes } = await fulfillmentOrders(store, '7014');
    expect(status).toBe('UNFULFILLED');
    expect(
      nodes.map((fo: Json) => [
        fo.status,
        fo.fulfillAt,
        fo.lineItems.nodes.map((l: Json) => [l.lineItem.title, l.totalQuantity]),
      ]),
    ).toEqual([
      ['OPEN', '2026-11-01T09:00:00Z', [['Coffee box', 1]]],
      ['SCHEDULED', '2026-12-01T09:00:00Z', [['Coffee box', 1]]],
      ['SCHEDULED', '2027-01-01T09:00:00Z', [['Coffee box', 1]]],
    ]);
    await expect(
      store.createOrder({
        lineItems: [{ title: 'Coffee box', quantity: 2 }],
        fulfillmentOrders: [
          { deliveries: ['2026-11-01T09:00:00Z', '2026-12-01T09:00:00Z', '2027-01-01T09:00:00Z'] },
        ],
      }),
    ).rejects.toThrow(/cannot be shared over 3 deliveries/);
  });

  it('reports progress: OPEN becomes IN_PROGRESS, the report is logged, a second report keeps it so', async () => {
    const [fo] = (await fulfillmentOrders(store, '7006')).nodes;
    const first = await graphql(store, REPORT_PROGRESS, {
      id: fo.id,
      notes: 'Registered at the carrier',
    });
    expect(first.fulfillmentOrderReportProgress).toEqual({
      fulfillmentOrder: {
        id: fo.id,
        status: 'IN_PROGRESS',
        supportedActions: [
          { action: 'CREATE_FULFILLMENT' },
          { action: 'REPORT_PROGRESS' },
          { action: 'HOLD' },
          { action: 'MARK_AS_OPEN' },
        ],
      },
      userErrors: [],
    });
    const second = await graphql(store, REPORT_PROGRESS, { id: fo.id });
    expect(second.fulfillmentOrderReportProgress.userErrors).toEqual([]);
    expect((await fulfillmentOrders(store, '7006')).status).toBe('IN_PROGRESS');
    expect(store.mutations.filter((m) => m.orderId === '7006')).toMatchObject([
      {
        type: 'fulfillmentOrderReportProgress',
        fulfillmentOrderId: fo.id.split('/').at(-1),
        reasonNotes: 'Registered at the carrier',
        initialStatus: 'OPEN',
      },
      { type: 'fulfillmentOrderReportProgress', reasonNotes: null, initialStatus: 'IN_PROGRESS' },
    ]);

    // Still fulfillable; once closed, no more reports.
    expect((await createFulfillment(store, [fo.id])).fulfillmentCreate.userErrors).toEqual([]);
    const closed = await graphql(store, REPORT_PROGRESS, { id: fo.id });
    expect(closed.fulfillmentOrderReportProgress.userErrors[0]).toMatchObject({
      code: 'FULFILLMENT_ORDER_STATUS_INVALID',
    });
    const missing = await graphql(store, REPORT_PROGRESS, {
      id: 'gid://shopify/FulfillmentOrder/1',
    });
    expect(missing.fulfillmentOrderReportProgress.userErrors[0].code).toBe(
      'FULFILLMENT_ORDER_NOT_FOUND',
    );
  });

  it('refuses a closed fulfillment order and keeps a partly fulfilled one IN_PROGRESS', async () => {
    const [fo] = (await fulfillmentOrders(store, '7007')).nodes;
    const line = fo.lineItems.nodes[0];
    const part = await graphql(
      store,
      /* GraphQL */ `
        mutation Part($fulfillment: FulfillmentInput!) {
          fulfillmentCreate(fulfillment: $fulfillment) { userErrors { message } }
        }
      `,
      {
        fulfillment: {
          lineItemsByFulfillmentOrder: [
            {
              fulfillmentOrderId: fo.id,
              fulfillmentOrderLineItems: [{ id: line.id, quantity: 1 }],
            },
          ],
        },
      },
    );
    expect(part.fulfillmentCreate.userErrors).toEqual([]);
    const partly = await fulfillmentOrders(store, '7007');
    expect(partly.status).toBe('PARTIALLY_FULFILLED');
    expect(partly.nodes[0].status).toBe('IN_PROGRESS');
    expect(actionsOf(partly.nodes[0])).not.toContain('MARK_AS_OPEN');

    await createFulfillment(store, [fo.id]);
    const refused = await createFulfillment(store, [fo.id]);
    expect(refused.fulfillmentCreate.userErrors[0].message).toBe(
      `Fulfillment order ${fo.id} has an unfulfillable status= closed.`,
    );
  });

  it('denies a write the granted scopes do not cover, as Shopify does, and changes nothing', async () => {
    const [fo] = (await fulfillmentOrders(store, '7001')).nodes;
    store.setAccessScopes([
      'read_orders',
      'write_orders',
      'read_merchant_managed_fulfillment_orders',
    ]);
    try {
      const response = await fetch(`${store.url}/admin/api/2026-10/graphql.json`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': ACCESS_TOKEN },
        body: JSON.stringify({
          query: FULFILLMENT_CREATE,
          variables: {
            fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id }] },
          },
        }),
      });
      const body = (await response.json()) as Json;
      expect(response.status).toBe(200);
      expect(body.data).toEqual({ fulfillmentCreate: null });
      expect(body.errors[0]).toMatchObject({
        message:
          'Access denied for fulfillmentCreate field. Required access: `write_assigned_fulfillment_orders` access scope, `write_merchant_managed_fulfillment_orders` access scope or `write_third_party_fulfillment_orders` access scope.',
        extensions: { code: 'ACCESS_DENIED' },
        path: ['fulfillmentCreate'],
      });
    } finally {
      store.setAccessScopes(DEFAULT_ACCESS_SCOPES);
    }
    expect((await fulfillmentOrders(store, '7001')).nodes[0].status).toBe('OPEN');
  });
});
