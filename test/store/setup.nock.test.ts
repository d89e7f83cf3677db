import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreAuthError, StoreUserError } from '../../src/store/errors.js';
import { createStoreSetup } from '../../src/store/setup/setup.js';
import { recordingSleep, testTransport, throttledBody } from './helpers.js';
import { answer, LAST_PAGE } from './nock-graphql.js';

/** The setup capability on its own transport, as `connector setup` builds it. */
const setup = (sleep?: (ms: number) => Promise<void>) =>
  createStoreSetup(testTransport(sleep ? { sleep } : {}));

afterEach(() => {
  nock.cleanAll();
});

describe('grantedScopes and shopIdentity', () => {
  it('lists the handles of the granted scopes', async () => {
    const read = answer({
      data: {
        currentAppInstallation: {
          accessScopes: [{ handle: 'read_orders' }, { handle: 'write_orders' }],
        },
      },
    });
    await expect(setup().grantedScopes()).resolves.toEqual(['read_orders', 'write_orders']);
    expect(read.requests[0]?.query).toContain('query GetGrantedScopes');
  });

  it("reads the shop's name and myshopify domain", async () => {
    answer({ data: { shop: { name: 'Demo shop', myshopifyDomain: 'demo.myshopify.com' } } });
    await expect(setup().shopIdentity()).resolves.toEqual({
      name: 'Demo shop',
      myshopifyDomain: 'demo.myshopify.com',
    });
  });

  it('maps a refused token to StoreAuthError', async () => {
    answer(
      { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' },
      401,
    );
    await expect(setup().shopIdentity()).rejects.toBeInstanceOf(StoreAuthError);
  });

  it('waits out a THROTTLED answer', async () => {
    const { waits, sleep } = recordingSleep();
    answer(throttledBody({ requested: 2, available: 0, restoreRate: 100 }));
    answer({ data: { currentAppInstallation: { accessScopes: [] } } });
    await expect(setup(sleep).grantedScopes()).resolves.toEqual([]);
    expect(waits).toEqual([20]);
  });
});

describe('webhook subscriptions', () => {
  const subscription = (n: number, topic = 'ORDERS_CREATE') => ({
    id: `gid://shopify/WebhookSubscription/${n}`,
    topic,
    uri: `https://connector.example/webhooks/shopify?n=${n}`,
  });

  it('lists those of the topics asked for, every page of them', async () => {
    const first = answer({
      data: {
        webhookSubscriptions: {
          nodes: [subscription(1)],
          pageInfo: { hasNextPage: true, endCursor: 'w1' },
        },
      },
    });
    const second = answer({
      data: {
        webhookSubscriptions: { nodes: [subscription(2, 'ORDERS_PAID')], pageInfo: LAST_PAGE },
      },
    });

    const listed = await setup().listWebhookSubscriptions(['ORDERS_CREATE', 'ORDERS_PAID']);

    expect(first.requests[0]?.query).toContain('query ListWebhookSubscriptions');
    expect(first.requests[0]?.variables).toEqual({
      topics: ['ORDERS_CREATE', 'ORDERS_PAID'],
      after: null,
    });
    expect(second.requests[0]?.variables).toEqual({
      topics: ['ORDERS_CREATE', 'ORDERS_PAID'],
      after: 'w1',
    });
    expect(listed).toEqual([subscription(1), subscription(2, 'ORDERS_PAID')]);
  });

  it('asks nothing for no topics', async () => {
    await expect(setup().listWebhookSubscriptions([])).resolves.toEqual([]);
  });

  it('creates a JSON subscription at a uri and returns its id', async () => {
    const create = answer({
      data: {
        webhookSubscriptionCreate: {
          webhookSubscription: { id: 'gid://shopify/WebhookSubscription/9' },
          userErrors: [],
        },
      },
    });

    const created = await setup().createWebhookSubscription(
      'ORDERS_CREATE',
      'https://connector.example/webhooks/shopify',
    );

    expect(create.requests[0]?.query).toContain('mutation CreateWebhookSubscription');
    expect(create.requests[0]?.variables).toEqual({
      topic: 'ORDERS_CREATE',
      webhookSubscription: { uri: 'https://connector.example/webhooks/shopify', format: 'JSON' },
    });
    expect(created).toEqual({ id: 'gid://shopify/WebhookSubscription/9' });
  });

  it('turns a refused subscription into StoreUserError', async () => {
    answer({
      data: {
        webhookSubscriptionCreate: {
          webhookSubscription: null,
          userErrors: [
            {
              field: ['webhookSubscription', 'uri'],
              message: 'Address for this topic has already been taken',
            },
          ],
        },
      },
    });
    const error = await setup()
      .createWebhookSubscription('ORDERS_CREATE', 'https://connector.example/webhooks/shopify')
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreUserError);
    expect(error.message).toBe(
      'Shopify refused CreateWebhookSubscription: webhookSubscription.uri: Address for this topic has already been taken',
    );
  });

  it('points a subscription at a new uri', async () => {
    const update = answer({
      data: {
        webhookSubscriptionUpdate: {
          webhookSubscription: { id: 'gid://shopify/WebhookSubscription/9' },
          userErrors: [],
        },
      },
    });
    await setup().updateWebhookSubscription(
      'gid://shopify/WebhookSubscription/9',
      'https://new.example/webhooks/shopify',
    );
    expect(update.requests[0]?.query).toContain('mutation UpdateWebhookSubscription');
    expect(update.requests[0]?.variables).toEqual({
      id: 'gid://shopify/WebhookSubscription/9',
      webhookSubscription: { uri: 'https://new.example/webhooks/shopify' },
    });
  });

  it('turns an update of a subscription that does not exist into StoreUserError', async () => {
    answer({
      data: {
        webhookSubscriptionUpdate: {
          webhookSubscription: null,
          userErrors: [{ field: ['id'], message: 'Webhook subscription does not exist' }],
        },
      },
    });
    await expect(
      setup().updateWebhookSubscription(
        'gid://shopify/WebhookSubscription/404',
        'https://x.example',
      ),
    ).rejects.toBeInstanceOf(StoreUserError);
  });
});

describe('order metafield definitions', () => {
  const definition = (key: string) => ({
    id: `gid://shopify/MetafieldDefinition/${key}`,
    key,
    name: key.replace('_', ' '),
    type: { name: 'single_line_text_field' },
  });

  it('lists the order definitions of a namespace, every page of them', async () => {
    const first = answer({
      data: {
        metafieldDefinitions: {
          nodes: [definition('order_number')],
          pageInfo: { hasNextPage: true, endCursor: 'd1' },
        },
      },
    });
    const second = answer({
      data: { metafieldDefinitions: { nodes: [definition('status')], pageInfo: LAST_PAGE } },
    });

    const listed = await setup().listOrderMetafieldDefinitions('partner_shipment');

    expect(first.requests[0]?.query).toContain('metafieldDefinitions(ownerType: ORDER');
    expect(first.requests[0]?.variables).toEqual({ namespace: 'partner_shipment', after: null });
    expect(second.requests[0]?.variables).toEqual({ namespace: 'partner_shipment', after: 'd1' });
    expect(listed).toEqual([
      {
        id: 'gid://shopify/MetafieldDefinition/order_number',
        key: 'order_number',
        name: 'order number',
        type: 'single_line_text_field',
      },
      {
        id: 'gid://shopify/MetafieldDefinition/status',
        key: 'status',
        name: 'status',
        type: 'single_line_text_field',
      },
    ]);
  });

  it('creates a definition on orders', async () => {
    const create = answer({
      data: {
        metafieldDefinitionCreate: {
          createdDefinition: { id: 'gid://shopify/MetafieldDefinition/1' },
          userErrors: [],
        },
      },
    });
    await setup().createOrderMetafieldDefinition({
      namespace: 'partner_shipment',
      key: 'order_number',
      name: 'Partner order number',
      description: "The provider's order number",
      type: 'single_line_text_field',
    });
    expect(create.requests[0]?.query).toContain('mutation CreateMetafieldDefinition');
    expect(create.requests[0]?.variables).toEqual({
      definition: {
        ownerType: 'ORDER',
        namespace: 'partner_shipment',
        key: 'order_number',
        name: 'Partner order number',
        description: "The provider's order number",
        type: 'single_line_text_field',
      },
    });
  });

  it('turns a refused definition into StoreUserError with its code', async () => {
    answer({
      data: {
        metafieldDefinitionCreate: {
          createdDefinition: null,
          userErrors: [{ field: ['definition', 'key'], message: 'Key is in use', code: 'TAKEN' }],
        },
      },
    });
    const error = await setup()
      .createOrderMetafieldDefinition({
        namespace: 'partner_shipment',
        key: 'status',
        name: 'Status',
        type: 'single_line_text_field',
      })
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreUserError);
    expect(error.userErrors[0]?.code).toBe('TAKEN');
  });
});
