import { describe, expect, it } from 'vitest';
import { METAFIELD_DEFINITIONS } from '../../src/domain/order-marks.js';
import { REQUIRED_SCOPES } from '../../src/store/setup/scopes.js';
import { runConnector } from '../helpers/connector-cli.js';
import {
  SHOP,
  type ShipmentStack,
  STORE_TOKEN,
  shipmentStacks,
  WEBHOOK_SECRET,
} from '../helpers/shipment-stack.js';

const stackFor = shipmentStacks();

const PUBLIC_URL = 'https://connector.example.com';
const TARGET = `${PUBLIC_URL}/webhooks/shopify`;
const TOPICS = ['ORDERS_CREATE', 'ORDERS_PAID', 'ORDERS_UPDATED', 'ORDERS_CANCELLED'];

const shopifyEnv = (stack: ShipmentStack) => ({
  LOG_LEVEL: 'warn',
  SHOPIFY_SHOP: SHOP,
  SHOPIFY_ACCESS_TOKEN: STORE_TOKEN,
  SHOPIFY_WEBHOOK_SECRET: WEBHOOK_SECRET,
  SHOPIFY_ADMIN_API_URL: stack.store.url,
});

const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();

/** A store with one recent order that needs shipping, with or without its address. */
async function storeWithRecentOrder(options: { address: boolean }) {
  const stack = await stackFor({
    workers: false,
    orders: [
      {
        id: '5560001',
        createdAt: hoursAgo(3),
        updatedAt: hoursAgo(2),
        ...(options.address ? {} : { shippingAddress: null }),
      },
    ],
  });
  // The fake store's app starts without some of them.
  stack.store.setAccessScopes([...REQUIRED_SCOPES]);
  return stack;
}

const setupWrites = (stack: ShipmentStack) =>
  stack.store.mutations.filter((m) => /webhookSubscription|metafieldDefinition/.test(m.type));

describe('connector setup', () => {
  it('--dry-run says what it would do and changes nothing', async () => {
    const stack = await storeWithRecentOrder({ address: true });

    const run = await runConnector(['setup', '--dry-run', '--public-url', PUBLIC_URL], {
      ...shopifyEnv(stack),
    });

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('dry run: nothing is changed');
    expect(run.stdout).toContain('✓ Access scopes: all granted');
    expect(run.stdout).toContain(`• Webhook orders/create → ${TARGET} (would be created)`);
    expect(run.stdout).toContain(
      '• Order metafield partner_shipment.tracking_number ("Shipment tracking number") (would be created)',
    );
    expect(run.stdout).toContain('✓ Shipping addresses: orders read back with them');
    expect(run.stdout).toMatch(/11 would be created, 0 updated.*without --dry-run/s);
    expect(stack.store.webhookSubscriptions()).toEqual([]);
    expect(stack.store.metafieldDefinitions()).toEqual([]);
    expect(setupWrites(stack)).toEqual([]);
  }, 60_000);

  it('subscribes the webhook topics the route takes, updates one pointing elsewhere, leaves the rest alone, and defines the metafields once', async () => {
    const stack = await storeWithRecentOrder({ address: true });
    const client = stack.storeClient;
    const old = await client.createWebhookSubscription(
      'ORDERS_PAID',
      'https://old-host.example.com/webhooks/shopify',
    );
    const kept = await client.createWebhookSubscription('ORDERS_CREATE', TARGET);
    await client.createOrderMetafieldDefinition({
      namespace: 'partner_shipment',
      key: 'status',
      name: 'Staff made this one',
      type: 'single_line_text_field',
    });

    const run = await runConnector(['setup'], { ...shopifyEnv(stack), PUBLIC_URL });

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`✓ Webhook orders/create → ${TARGET} (already in place)`);
    expect(run.stdout).toContain(`✓ Webhook orders/paid → ${TARGET} (updated)`);
    expect(run.stdout).toContain('It pointed at https://old-host.example.com/webhooks/shopify.');
    expect(run.stdout).toContain(`✓ Webhook orders/cancelled → ${TARGET} (created)`);
    expect(run.stdout).toContain('8 created, 1 updated, 2 already in place');
    expect(run.stdout).toContain('The Shopify side is ready.');

    const subscriptions = stack.store.webhookSubscriptions();
    expect(subscriptions.map((s) => s.topic).sort()).toEqual([...TOPICS].sort());
    expect(subscriptions.every((s) => s.uri === TARGET)).toBe(true);
    const ids = subscriptions.map((s) => s.id);
    expect(ids).toContain(old.id.split('/').pop());
    expect(ids).toContain(kept.id.split('/').pop());

    const definitions = stack.store.metafieldDefinitions();
    expect(definitions.map((d) => d.key).sort()).toEqual(
      METAFIELD_DEFINITIONS.map((d) => d.key).sort(),
    );
    expect(definitions.find((d) => d.key === 'status')?.name).toBe('Staff made this one');
    const created = definitions.filter((d) => d.key !== 'status');
    expect(
      created.every((d) => d.ownerType === 'ORDER' && d.namespace === 'partner_shipment'),
    ).toBe(true);
    expect(created.every((d) => d.pinned && (d.description ?? '').length > 20)).toBe(true);
    expect(definitions.find((d) => d.key === 'error')?.type).toBe('multi_line_text_field');

    // Again: everything is in place, nothing is written.
    const writes = setupWrites(stack).length;
    const again = await runConnector(['setup'], { ...shopifyEnv(stack), PUBLIC_URL });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('0 created, 0 updated, 11 already in place');
    expect(setupWrites(stack)).toHaveLength(writes);
  }, 60_000);

  it('names the missing scopes with what each is for, and exits non-zero', async () => {
    const stack = await storeWithRecentOrder({ address: true });
    stack.store.setAccessScopes(
      REQUIRED_SCOPES.filter((s) => s !== 'read_products' && s !== 'write_fulfillments'),
    );

    const run = await runConnector(['setup', '--dry-run', '--public-url', PUBLIC_URL], {
      ...shopifyEnv(stack),
    });

    expect(run.code).toBe(1);
    expect(run.stdout).toContain('✗ Access scopes: 2 missing');
    expect(run.stdout).toContain(
      "read_products: item weights and product types of an order's lines",
    );
    expect(run.stdout).toContain(
      'write_fulfillments: marking fulfillments in transit and delivered',
    );
    expect(run.stdout).toContain('run `connector setup` again');
  }, 60_000);

  it('says orders come back without a shipping address when protected customer data is not granted', async () => {
    const stack = await storeWithRecentOrder({ address: false });

    const run = await runConnector(['setup', '--dry-run', '--public-url', PUBLIC_URL], {
      ...shopifyEnv(stack),
    });

    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /✗ Shipping addresses: orders needing shipping read back without one/,
    );
    expect(run.stdout).toContain('protected customer data');
    expect(run.stdout).toContain('Protected customer data access');
  }, 60_000);

  it('needs a public address for the webhooks, and https', async () => {
    const stack = await storeWithRecentOrder({ address: true });

    const none = await runConnector(['setup', '--dry-run'], shopifyEnv(stack));
    expect(none.code).toBe(1);
    expect(none.stdout).toContain('✗ Webhooks: no public address to subscribe them to');
    expect(none.stdout).toContain('Set PUBLIC_URL');

    const plain = await runConnector(['setup', '--public-url', 'http://connector.example.com'], {
      ...shopifyEnv(stack),
    });
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain('Shopify delivers only to https addresses');
    expect(stack.store.webhookSubscriptions()).toEqual([]);

    const lacking = await runConnector(['setup'], { LOG_LEVEL: 'warn' });
    expect(lacking.code).toBe(78);
    expect(lacking.stderr).toContain('SHOPIFY_SHOP is required');
  }, 60_000);
});
