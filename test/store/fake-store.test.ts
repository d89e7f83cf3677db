import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeStore, startFakeStore } from '../../src/sandbox/store/index.js';
import type { FakeOrder } from '../../src/sandbox/store/model.js';
import type { FakeMutation } from '../../src/sandbox/store/state.js';
import { signWebhook } from '../../src/sandbox/store/webhooks.js';
import { createWebhookVerifier } from '../../src/store/webhooks.js';
import { ACCESS_TOKEN, GRAPHQL_PATH, SHOP, WEBHOOK_SECRET } from './helpers.js';

/** A local webhook receiver that keeps the raw body and headers of each delivery. */
async function startReceiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end('ok');
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

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers.
    json: (await response.json()) as any,
  };
}

const graphql = (store: FakeStore, query: string, token = ACCESS_TOKEN) =>
  post(`${store.url}${GRAPHQL_PATH}`, { query }, { 'X-Shopify-Access-Token': token });

describe('fake store', () => {
  let store: FakeStore;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const verify = createWebhookVerifier({
    webhookSecret: WEBHOOK_SECRET,
    shop: SHOP,
  });

  beforeAll(async () => {
    receiver = await startReceiver();
    store = await startFakeStore({
      shop: SHOP,
      accessToken: ACCESS_TOKEN,
      webhookSecret: WEBHOOK_SECRET,
      clientId: 'cid',
      clientSecret: 'csecret',
      tokenTtlSeconds: 600,
    });
  });
  afterAll(async () => {
    await store.close();
    await receiver.close();
  });

  it('seeds the seven demo orders by default', () => {
    expect(store.orders().map((o) => o.id)).toEqual([
      '5550001',
      '5550002',
      '5550003',
      '5550004',
      '5550005',
      '5550006',
      '5550007',
    ]);
  });

  it('answers 401 without the access token', async () => {
    const response = await graphql(
      store,
      '{ order(id: "gid://shopify/Order/5550001") { id } }',
      'nope',
    );
    expect(response.status).toBe(401);
    expect(response.json.errors).toMatch(/Invalid API key or access token/);
  });

  it('rejects a field the Admin API does not have, as Shopify does (200 with errors)', async () => {
    const response = await graphql(
      store,
      '{ order(id: "gid://shopify/Order/5550001") { weight } }',
    );
    expect(response.status).toBe(200);
    expect(response.json.errors[0].message).toBe('Cannot query field "weight" on type "Order".');
  });

  it('answers a document it has seen before as it did the first time, rejected or run', async () => {
    const bad = '{ order(id: "gid://shopify/Order/5550001") { weight } }';
    const good = '{ order(id: "gid://shopify/Order/5550001") { name } }';
    const broken = '{ order(id: "gid://shopify/Order/5550001") { name }';
    for (let round = 0; round < 2; round += 1) {
      expect((await graphql(store, bad)).json.errors[0].message).toBe(
        'Cannot query field "weight" on type "Order".',
      );
      expect((await graphql(store, good)).json.data.order.name).toBe('#1001');
      expect((await graphql(store, broken)).json.errors[0].message).toMatch(/^Syntax Error/);
    }
  });

  it('creates an order from a partial one with Danish defaults and sends a signed orders/create webhook', async () => {
    const response = await post(`${store.url}/_fake/orders`, {
      order: { tags: ['document'], lineItems: [{ title: 'Letter', weight: { value: 20 } }] },
      webhookUrl: receiver.url,
    });

    expect(response.status).toBe(201);
    const order = response.json.order;
    expect(order).toMatchObject({
      id: '5550008',
      financialStatus: 'PAID',
      tags: ['document'],
      shippingAddress: { countryCode: 'DK', zip: '2200' },
      lineItems: [{ title: 'Letter', weight: { value: 20, unit: 'GRAMS' } }],
    });
    expect(response.json.webhook).toMatchObject({ topic: 'orders/create', status: 200 });

    const delivery = receiver.received.at(-1)!;
    expect(delivery.headers['x-shopify-hmac-sha256']).toBe(
      signWebhook(WEBHOOK_SECRET, delivery.body),
    );
    expect(delivery.headers).toMatchObject({
      'x-shopify-topic': 'orders/create',
      'x-shopify-shop-domain': SHOP,
      'x-shopify-api-version': '2026-10',
    });
    expect(delivery.headers['x-shopify-webhook-id']).toBeTruthy();
    expect(delivery.headers['x-shopify-event-id']).toBeTruthy();
    expect(delivery.headers['x-shopify-triggered-at']).toBeTruthy();
    expect(JSON.parse(delivery.body)).toMatchObject({
      id: 5550008,
      admin_graphql_api_id: 'gid://shopify/Order/5550008',
      financial_status: 'paid',
      line_items: [{ title: 'Letter', grams: 20 }],
    });
    await expect(verify(delivery.body, delivery.headers)).resolves.toMatchObject({
      valid: true,
      topic: 'orders/create',
    });
  });

  it('refuses an invalid partial order and a duplicate id', async () => {
    const invalid = await post(`${store.url}/_fake/orders`, { order: { lineItems: [] } });
    expect(invalid.status).toBe(400);
    const duplicate = await post(`${store.url}/_fake/orders`, { order: { id: '5550001' } });
    expect(duplicate.status).toBe(409);
  });

  it('marks an order paid and cancels one, announcing each with its topic', async () => {
    const { order } = await store.createOrder({ financialStatus: 'pending' });
    const paid = await post(`${store.url}/_fake/orders/${order.id}`, {
      markPaid: true,
      webhookUrl: receiver.url,
    });
    expect(paid.json.order.financialStatus).toBe('PAID');
    expect(receiver.received.at(-1)?.headers['x-shopify-topic']).toBe('orders/paid');

    const cancelled = await post(`${store.url}/_fake/orders/${order.id}`, {
      cancel: true,
      webhookUrl: receiver.url,
    });
    expect(cancelled.json.order.cancelledAt).not.toBeNull();
    expect(cancelled.json.order.fulfillmentOrders[0].status).toBe('CLOSED');
    const delivery = receiver.received.at(-1)!;
    expect(delivery.headers['x-shopify-topic']).toBe('orders/cancelled');
    expect(JSON.parse(delivery.body).cancelled_at).not.toBeNull();
  });

  it('sends no webhook when no URL is known', async () => {
    const before = receiver.received.length;
    const created = await store.createOrder({});
    expect(created.webhook).toBeUndefined();
    expect(receiver.received.length).toBe(before);
  });

  it('shows an order and the mutation log over HTTP', async () => {
    await graphql(
      store,
      'mutation { tagsAdd(id: "gid://shopify/Order/5550003", tags: ["checked"]) { userErrors { message } } }',
    );
    const order = (await (await fetch(`${store.url}/_fake/orders/5550003`)).json()) as FakeOrder;
    expect(order.tags).toContain('checked');
    const mutations = (await (
      await fetch(`${store.url}/_fake/mutations`)
    ).json()) as FakeMutation[];
    expect(mutations.at(-1)).toMatchObject({
      type: 'tagsAdd',
      orderId: '5550003',
      tags: ['checked'],
    });
    expect((await fetch(`${store.url}/_fake/orders/1`)).status).toBe(404);
  });

  it('answers a tag change on a missing order with userErrors, not a failure', async () => {
    const response = await graphql(
      store,
      'mutation { tagsAdd(id: "gid://shopify/Order/1", tags: ["x"]) { node { id } userErrors { field message } } }',
    );
    expect(response.json.data.tagsAdd).toEqual({
      node: null,
      userErrors: [{ field: ['id'], message: 'Order does not exist' }],
    });
  });

  it('answers metafieldsDelete with one entry per identifier, null for a missing metafield', async () => {
    await graphql(
      store,
      'mutation { metafieldsSet(metafields: [{ ownerId: "gid://shopify/Order/5550004", namespace: "partner_shipment", key: "error", value: "too heavy", type: "single_line_text_field" }]) { userErrors { message } } }',
    );
    const response = await graphql(
      store,
      `mutation {
        metafieldsDelete(metafields: [
          { ownerId: "gid://shopify/Order/5550004", namespace: "partner_shipment", key: "absent" }
          { ownerId: "gid://shopify/Order/5550004", namespace: "partner_shipment", key: "error" }
        ]) { deletedMetafields { ownerId namespace key } userErrors { field message } }
      }`,
    );
    expect(response.json.data.metafieldsDelete).toEqual({
      deletedMetafields: [
        null,
        { ownerId: 'gid://shopify/Order/5550004', namespace: 'partner_shipment', key: 'error' },
      ],
      userErrors: [],
    });
    expect(store.order('5550004')?.metafields).toEqual([]);
  });

  it('sets metafields with orderUpdate by namespace and key (made or updated) for a flat 10 points', async () => {
    const update = (metafields: string) =>
      graphql(
        store,
        `mutation { orderUpdate(input: { id: "gid://shopify/Order/5550005", metafields: ${metafields} }) { order { id } userErrors { field message } } }`,
      );
    const receivedBefore = receiver.received.length;
    const made = await update(
      '[{ namespace: "partner_shipment", key: "order_number", type: "single_line_text_field", value: "A1" }, { namespace: "partner_shipment", key: "status", type: "single_line_text_field", value: "pending" }]',
    );
    expect(made.json.data.orderUpdate.userErrors).toEqual([]);
    expect(made.json.extensions.cost.actualQueryCost).toBe(10);
    // Known by namespace and key: updated in place, its type kept.
    const updated = await update(
      '[{ namespace: "partner_shipment", key: "status", value: "shipped" }]',
    );
    expect(updated.json.data.orderUpdate.userErrors).toEqual([]);
    expect(
      store.order('5550005')?.metafields.map(({ key, value, type }) => ({ key, value, type })),
    ).toEqual([
      { key: 'order_number', value: 'A1', type: 'single_line_text_field' },
      { key: 'status', value: 'shipped', type: 'single_line_text_field' },
    ]);
    expect(store.mutations.at(-1)).toMatchObject({
      type: 'orderUpdate',
      orderId: '5550005',
      metafields: [
        {
          namespace: 'partner_shipment',
          key: 'status',
          value: 'shipped',
          type: 'single_line_text_field',
        },
      ],
    });

    // A refused metafield refuses the whole update: nothing is written.
    const refused = await update(
      '[{ namespace: "partner_shipment", key: "carrier", type: "single_line_text_field", value: "GLS" }, { namespace: "partner_shipment", key: "new_one", value: "x" }]',
    );
    expect(refused.json.data.orderUpdate).toEqual({
      order: null,
      userErrors: [{ field: ['metafields', '1', 'type'], message: "Type can't be blank." }],
    });
    expect(store.order('5550005')?.metafields.map((m) => m.key)).toEqual([
      'order_number',
      'status',
    ]);
    // Like the fake's other Admin mutations, it announces no webhook.
    expect(receiver.received.length).toBe(receivedBefore);
  });

  it('refuses, as Shopify does, a query whose requested cost is over 1,000 points', async () => {
    const before = store.requests.length;
    const costly = await graphql(
      store,
      `query Costly {
        orders(first: 50) {
          nodes { id lineItems(first: 100) { nodes { title variant { inventoryItem { measurement { weight { value } } } } } } }
        }
      }`,
    );
    expect(costly.status).toBe(200);
    // 2 + 50 × (1 + 2 + 100 × 5)
    expect(costly.json).toEqual({
      errors: [
        {
          message: 'Query cost is 25152, which exceeds the single query max cost limit (1000).',
          extensions: { code: 'MAX_COST_EXCEEDED', cost: 25152, maxCost: 1000 },
        },
      ],
    });
    expect(store.requests.slice(before).map((r) => r.outcome)).toEqual(['too_costly']);

    const cheap = await graphql(store, '{ orders(first: 100) { nodes { id requiresShipping } } }');
    expect(cheap.json.data.orders.nodes).not.toHaveLength(0);
  });

  it('answers THROTTLED with the cost extension, then normally', async () => {
    await post(`${store.url}/_fake/throttle`, { count: 1, currentlyAvailable: 3, restoreRate: 50 });
    const query = '{ order(id: "gid://shopify/Order/5550001") { id } }';
    const throttled = await graphql(store, query);
    expect(throttled.status).toBe(200);
    expect(throttled.json).toEqual({
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
          requestedQueryCost: 10,
          actualQueryCost: null,
          throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 3, restoreRate: 50 },
        },
      },
    });
    const normal = await graphql(store, query);
    expect(normal.json.data.order.id).toBe('gid://shopify/Order/5550001');
    // The log keeps the points charged once a document ran; a throttled one ran nothing.
    const [refused, answered] = store.requests.slice(-2);
    expect(refused).toMatchObject({ outcome: 'throttled' });
    expect(refused).not.toHaveProperty('actualQueryCost');
    expect(answered).toMatchObject({
      outcome: 'ok',
      actualQueryCost: normal.json.extensions.cost.actualQueryCost,
    });
    expect(answered?.actualQueryCost).toBeGreaterThan(0);
  });

  it('answers HTTP 429 with Retry-After in seconds when rate limiting', async () => {
    await post(`${store.url}/_fake/rate-limit`, { count: 1, retryAfterSeconds: 2 });
    const limited = await graphql(store, '{ order(id: "gid://shopify/Order/5550001") { id } }');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
  });

  it('hands out client-credentials tokens that expire, only for the right secret', async () => {
    const wrong = await post(`${store.url}/admin/oauth/access_token`, {
      client_id: 'cid',
      client_secret: 'nope',
      grant_type: 'client_credentials',
    });
    expect(wrong.status).toBe(400);

    const granted = await post(`${store.url}/admin/oauth/access_token`, {
      client_id: 'cid',
      client_secret: 'csecret',
      grant_type: 'client_credentials',
    });
    expect(granted.json).toMatchObject({ expires_in: 600, scope: expect.any(String) });
    const token = granted.json.access_token as string;
    const ok = await graphql(store, '{ order(id: "gid://shopify/Order/5550001") { id } }', token);
    expect(ok.status).toBe(200);

    store.revokeTokens();
    const revoked = await graphql(
      store,
      '{ order(id: "gid://shopify/Order/5550001") { id } }',
      token,
    );
    expect(revoked.status).toBe(401);
  });
});
