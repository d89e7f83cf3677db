import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_ACCESS_SCOPES, type FakeStore } from '../../../src/sandbox/store/index.js';
import { control, graphql, type Json, startStore } from './fake-admin.js';

const INSTALLATION = /* GraphQL */ `
  query Installation {
    shop { name myshopifyDomain }
    currentAppInstallation { accessScopes { handle } }
  }
`;

const SUBSCRIPTIONS = /* GraphQL */ `
  query Subscriptions($topics: [WebhookSubscriptionTopic!]) {
    webhookSubscriptions(first: 50, topics: $topics) {
      nodes { id topic uri format }
      pageInfo { hasNextPage }
    }
  }
`;

const SUBSCRIBE = /* GraphQL */ `
  mutation Subscribe($topic: WebhookSubscriptionTopic!, $subscription: WebhookSubscriptionInput!) {
    webhookSubscriptionCreate(topic: $topic, webhookSubscription: $subscription) {
      webhookSubscription { id topic uri format }
      userErrors { field message }
    }
  }
`;

const RESUBSCRIBE = /* GraphQL */ `
  mutation Resubscribe($id: ID!, $subscription: WebhookSubscriptionInput!) {
    webhookSubscriptionUpdate(id: $id, webhookSubscription: $subscription) {
      webhookSubscription { id topic uri }
      userErrors { field message }
    }
  }
`;

const DEFINITIONS = /* GraphQL */ `
  query Definitions($namespace: String) {
    metafieldDefinitions(ownerType: ORDER, namespace: $namespace, first: 50) {
      nodes { id name namespace key ownerType type { name } }
    }
  }
`;

const DEFINE = /* GraphQL */ `
  mutation Define($definition: MetafieldDefinitionInput!) {
    metafieldDefinitionCreate(definition: $definition) {
      createdDefinition { id namespace key type { name } }
      userErrors { field message code }
    }
  }
`;

/** A local webhook receiver. */
async function startReceiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/shopify`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('fake store: what `connector setup` reads and writes', () => {
  let store: FakeStore;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    store = await startStore();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await store.close();
    await receiver.close();
  });

  it("tells the shop and the app's granted scopes, settable over HTTP", async () => {
    const data = await graphql(store, INSTALLATION);
    expect(data.shop).toEqual({ name: 'Demo Store', myshopifyDomain: 'demo.myshopify.com' });
    expect(data.currentAppInstallation.accessScopes.map((s: Json) => s.handle)).toEqual(
      DEFAULT_ACCESS_SCOPES,
    );
    expect(DEFAULT_ACCESS_SCOPES).toEqual(
      expect.arrayContaining([
        'read_orders',
        'write_orders',
        'read_merchant_managed_fulfillment_orders',
        'write_merchant_managed_fulfillment_orders',
        'write_fulfillments',
      ]),
    );

    const set = await control(store, '/_fake/access-scopes', { scopes: ['read_orders'] }, 'PUT');
    expect(set.json).toEqual({ scopes: ['read_orders'] });
    const narrowed = await graphql(store, INSTALLATION);
    expect(narrowed.currentAppInstallation.accessScopes).toEqual([{ handle: 'read_orders' }]);
    store.setAccessScopes(DEFAULT_ACCESS_SCOPES);
    expect((await control(store, '/_fake/access-scopes')).json.scopes).toEqual(
      DEFAULT_ACCESS_SCOPES,
    );
  });

  it('subscribes to webhooks once per topic and address, lists and moves them', async () => {
    expect((await graphql(store, SUBSCRIPTIONS)).webhookSubscriptions.nodes).toEqual([]);

    const created = await graphql(store, SUBSCRIBE, {
      topic: 'ORDERS_CREATE',
      subscription: { uri: receiver.url, format: 'JSON' },
    });
    expect(created.webhookSubscriptionCreate).toMatchObject({
      webhookSubscription: { topic: 'ORDERS_CREATE', uri: receiver.url, format: 'JSON' },
      userErrors: [],
    });
    const duplicate = await graphql(store, SUBSCRIBE, {
      topic: 'ORDERS_CREATE',
      subscription: { uri: receiver.url },
    });
    expect(duplicate.webhookSubscriptionCreate).toEqual({
      webhookSubscription: null,
      userErrors: [
        {
          field: ['webhookSubscription', 'uri'],
          message: 'Address for this topic has already been taken',
        },
      ],
    });
    const plainHttp = await graphql(store, SUBSCRIBE, {
      topic: 'ORDERS_PAID',
      subscription: { uri: 'http://connector.example.com/webhooks/shopify' },
    });
    expect(plainHttp.webhookSubscriptionCreate.userErrors[0].message).toBe(
      'Address protocol http:// is not supported',
    );
    const other = await graphql(store, SUBSCRIBE, {
      topic: 'ORDERS_PAID',
      subscription: { uri: 'https://old.example.com/webhooks/shopify' },
    });
    expect(other.webhookSubscriptionCreate.userErrors).toEqual([]);

    const paid = await graphql(store, SUBSCRIPTIONS, { topics: ['ORDERS_PAID'] });
    expect(paid.webhookSubscriptions.nodes).toHaveLength(1);
    const moved = await graphql(store, RESUBSCRIBE, {
      id: paid.webhookSubscriptions.nodes[0].id,
      subscription: { uri: receiver.url },
    });
    expect(moved.webhookSubscriptionUpdate).toMatchObject({
      webhookSubscription: { topic: 'ORDERS_PAID', uri: receiver.url },
      userErrors: [],
    });
    const missing = await graphql(store, RESUBSCRIBE, {
      id: 'gid://shopify/WebhookSubscription/1',
      subscription: { uri: receiver.url },
    });
    expect(missing.webhookSubscriptionUpdate.userErrors).toHaveLength(1);
    expect((await control(store, '/_fake/webhook-subscriptions')).json).toHaveLength(2);
  });

  it('sends order webhooks to the subscribed address when a call names none', async () => {
    const before = receiver.received.length;
    await store.createOrder({ id: '9101', financialStatus: 'pending' });
    await store.updateOrder('9101', { markPaid: true });
    await store.updateOrder('9101', { note: 'gift' });
    expect(receiver.received.slice(before).map((d) => d.headers['x-shopify-topic'])).toEqual([
      'orders/create',
      'orders/paid',
    ]);
  });

  it("sends orders/updated after the app's own writes to an order, with its new updated_at", async () => {
    await graphql(store, SUBSCRIBE, {
      topic: 'ORDERS_UPDATED',
      subscription: { uri: receiver.url },
    });
    await store.createOrder({ id: '9102' }, { sendWebhook: false });
    const before = receiver.received.length;
    await graphql(store, '{ order(id: "gid://shopify/Order/9102") { id } }');
    const tagged = await graphql(
      store,
      'mutation { tagsAdd(id: "gid://shopify/Order/9102", tags: ["registered"]) { userErrors { message } } }',
    );
    expect(tagged.tagsAdd.userErrors).toEqual([]);
    await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThan(before));
    const sent = receiver.received.slice(before);
    expect(sent.map((d) => d.headers['x-shopify-topic'])).toEqual(['orders/updated']);
    const body = JSON.parse(sent[0]!.body);
    expect(body).toMatchObject({ id: 9102, tags: 'registered' });
    expect(body.updated_at).toBe(store.order('9102')!.updatedAt);
  });

  it('defines order metafields once, refusing a second definition of the same key with TAKEN', async () => {
    const definition = {
      name: 'Shipment order number',
      namespace: 'partner_shipment',
      key: 'order_number',
      type: 'single_line_text_field',
      ownerType: 'ORDER',
    };
    const created = await graphql(store, DEFINE, { definition });
    expect(created.metafieldDefinitionCreate).toMatchObject({
      createdDefinition: {
        namespace: 'partner_shipment',
        key: 'order_number',
        type: { name: 'single_line_text_field' },
      },
      userErrors: [],
    });
    const again = await graphql(store, DEFINE, { definition });
    expect(again.metafieldDefinitionCreate).toEqual({
      createdDefinition: null,
      userErrors: [
        {
          field: ['definition', 'key'],
          message: "Key is in use for Order metafields on the 'partner_shipment' namespace.",
          code: 'TAKEN',
        },
      ],
    });
    const badType = await graphql(store, DEFINE, {
      definition: { ...definition, key: 'status', type: 'rainbow' },
    });
    expect(badType.metafieldDefinitionCreate.userErrors[0].code).toBe('INCLUSION');

    const listed = await graphql(store, DEFINITIONS, { namespace: 'partner_shipment' });
    expect(listed.metafieldDefinitions.nodes).toMatchObject([
      { name: 'Shipment order number', key: 'order_number', ownerType: 'ORDER' },
    ]);
    expect(
      (await graphql(store, DEFINITIONS, { namespace: 'other' })).metafieldDefinitions.nodes,
    ).toEqual([]);
    expect(store.metafieldDefinitions()).toHaveLength(1);
  });
});
