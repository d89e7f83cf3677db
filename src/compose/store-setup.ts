import type { StoreAddress, StoreOrderSummary } from '../domain/order.js';
import { METAFIELD_DEFINITIONS, METAFIELD_NAMESPACE } from '../domain/order-marks.js';
import { ORDER_TOPICS, WEBHOOK_PATH } from '../server/webhook-route.js';
import { StoreAuthError, StoreError, StoreUserError } from '../store/errors.js';
import { missingScopes, type RequiredScope, SCOPE_PURPOSES } from '../store/setup/scopes.js';
import type { OrderReader, StoreSetup } from '../store/types.js';

/** `missing`: this command cannot fix it; `todo`: a dry run would change it. */
export interface SetupItem {
  state: 'ok' | 'todo' | 'missing' | 'unchecked';
  text: string;
  change?: 'created' | 'updated' | 'unchanged';
  details?: string[];
}

export interface SetupResult {
  shop?: { name: string; myshopifyDomain: string };
  items: SetupItem[];
  dryRun: boolean;
}

export type SetupStore = StoreSetup & Pick<OrderReader, 'listOrdersUpdatedSince' | 'getOrder'>;

export interface SetupOptions {
  publicUrl: string | undefined;
  dryRun: boolean;
}

/** Each check's title says which one Shopify refused. */
const CHECKS = [
  ['Access scopes', checkScopes],
  ['Webhooks', subscribeWebhooks],
  ['Order metafield definitions', defineMetafields],
  ['Customer data', checkCustomerData],
] as const;

/** Writes only what is missing or points elsewhere; a step Shopify refuses stops no other. */
export async function prepareStore(store: SetupStore, options: SetupOptions): Promise<SetupResult> {
  const result: SetupResult = { items: [], dryRun: options.dryRun };
  try {
    result.shop = await store.shopIdentity();
  } catch (error) {
    // A refused token is a line of the checklist; other failures go to the caller.
    if (!(error instanceof StoreAuthError)) throw error;
    result.items.push(
      missing(
        `Shopify did not take the access token: ${error.message}`,
        'Check SHOPIFY_SHOP and SHOPIFY_ACCESS_TOKEN (or the client id and secret).',
      ),
    );
    return result;
  }
  for (const [text, check] of CHECKS) {
    try {
      result.items.push(...(await check(store, options)));
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      result.items.push(refused(text, error));
    }
  }
  return result;
}

function missing(text: string, ...details: string[]): SetupItem {
  return { state: 'missing', text, ...(details.length > 0 ? { details } : {}) };
}

const refused = (text: string, error: StoreError) =>
  missing(`${text}: Shopify refused (${error.message})`);

/** A dry run only says what it would change; `taken`: someone else made it a moment ago. */
async function write(
  item: { text: string; change: 'created' | 'updated'; details?: string[] },
  dryRun: boolean,
  change: () => Promise<unknown>,
  taken: (error: unknown) => boolean = () => false,
): Promise<SetupItem> {
  if (dryRun) return { state: 'todo', ...item };
  try {
    await change();
    return { state: 'ok', ...item };
  } catch (error) {
    if (taken(error)) return { state: 'ok', text: item.text, change: 'unchanged' };
    if (!(error instanceof StoreError)) throw error;
    return refused(item.text, error);
  }
}

async function checkScopes(store: SetupStore): Promise<SetupItem[]> {
  const absent = missingScopes(await store.grantedScopes()) as RequiredScope[];
  if (absent.length === 0) return [{ state: 'ok', text: 'Access scopes: all granted' }];
  return [
    missing(
      `Access scopes: ${absent.length} missing`,
      ...absent.map((scope) => `${scope}: ${SCOPE_PURPOSES[scope]}`),
      "Add them to the app's Admin API access scopes (Shopify admin → Settings → Apps and sales channels → Develop apps → the app → Configuration; or the app's version in the Dev Dashboard), install the new version on the store, then run setup again.",
    ),
  ];
}

const topicEnum = (topic: string) => topic.toUpperCase().replace('/', '_');

async function subscribeWebhooks(store: SetupStore, options: SetupOptions): Promise<SetupItem[]> {
  if (!options.publicUrl) {
    return [
      missing(
        'Webhooks: no public address to subscribe them to',
        'Set PUBLIC_URL (e.g. https://connector.example.com) or pass --public-url, then run setup again.',
      ),
    ];
  }
  const uri = `${options.publicUrl.replace(/\/+$/, '')}${WEBHOOK_PATH}`;
  if (!isDeliverable(uri)) {
    return [
      missing(
        `Webhooks: Shopify delivers only to https addresses, not ${uri}`,
        'Serve the connector behind https and set PUBLIC_URL to that address.',
      ),
    ];
  }
  const existing = await store.listWebhookSubscriptions(ORDER_TOPICS.map(topicEnum));
  const items: SetupItem[] = [];
  for (const topic of ORDER_TOPICS) {
    const mine = existing.filter((s) => s.topic === topicEnum(topic));
    const text = `Webhook ${topic} → ${uri}`;
    if (mine.some((s) => s.uri === uri)) {
      items.push({ state: 'ok', text, change: 'unchanged' });
      continue;
    }
    const elsewhere = mine[0];
    const item = elsewhere
      ? { text, change: 'updated' as const, details: [`It pointed at ${elsewhere.uri}.`] }
      : { text, change: 'created' as const };
    items.push(
      await write(item, options.dryRun, () =>
        elsewhere
          ? store.updateWebhookSubscription(elsewhere.id, uri)
          : store.createWebhookSubscription(topicEnum(topic), uri),
      ),
    );
  }
  return items;
}

/** Plain http only on this machine (a local fake store). */
function isDeliverable(uri: string): boolean {
  const url = new URL(uri);
  return (
    url.protocol === 'https:' ||
    (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))
  );
}

async function defineMetafields(store: SetupStore, { dryRun }: SetupOptions): Promise<SetupItem[]> {
  const existing = await store.listOrderMetafieldDefinitions(METAFIELD_NAMESPACE);
  const items: SetupItem[] = [];
  for (const def of METAFIELD_DEFINITIONS) {
    const text = `Order metafield ${METAFIELD_NAMESPACE}.${def.key} ("${def.name}")`;
    const found = existing.find((d) => d.key === def.key);
    if (found) {
      items.push(
        found.type === def.type
          ? { state: 'ok', text, change: 'unchanged' }
          : missing(
              `${text} exists as ${found.type}; the connector writes ${def.type}`,
              "Shopify refuses the connector's writes to it: delete or change the definition (Settings → Custom data → Orders), then run setup again.",
            ),
      );
      continue;
    }
    const create = () =>
      store.createOrderMetafieldDefinition({ namespace: METAFIELD_NAMESPACE, ...def, pin: true });
    const taken = (error: unknown) =>
      error instanceof StoreUserError && error.userErrors.some((e) => e.code === 'TAKEN');
    items.push(await write({ text, change: 'created' }, dryRun, create, taken));
  }
  return items;
}

const DAY_MS = 24 * 3600_000;
const LOOKBACKS_DAYS = [1, 7, 30];
const PAGES_PER_LOOKBACK = 3;
const ORDERS_TO_READ = 2;

/** An order without its shipping address means the app may not read protected customer data. */
async function checkCustomerData(store: SetupStore): Promise<SetupItem[]> {
  const recent = await newestShippingOrders(store);
  if (recent.length === 0) {
    return [
      {
        state: 'unchecked',
        text: 'Shipping addresses: no order needing shipping in the last 30 days to check',
        details: ['Run setup again after the first order.'],
      },
    ];
  }
  const read = [];
  for (const summary of recent) {
    const order = await store.getOrder(summary.id);
    if (order) read.push({ name: order.name, hasAddress: hasAddress(order.shippingAddress) });
  }
  const names = read.map((o) => o.name).join(', ');
  if (read.some((o) => o.hasAddress)) {
    return [{ state: 'ok', text: `Shipping addresses: orders read back with them (${names})` }];
  }
  return [
    missing(
      `Shipping addresses: orders needing shipping read back without one (${names})`,
      'The app lacks access to protected customer data (name, address, phone, email), so no shipment can be made.',
      'Request it: in the Dev Dashboard (or Partner Dashboard), the app → API access → Protected customer data access → select Name, Email, Phone and Address, give the reason (shipping the orders), and save; for an app made in the Shopify admin: Settings → Apps and sales channels → Develop apps → the app → API access. Then run setup again.',
    ),
  ];
}

async function newestShippingOrders(store: SetupStore) {
  for (const days of LOOKBACKS_DAYS) {
    const orders: StoreOrderSummary[] = [];
    const since = new Date(Date.now() - days * DAY_MS);
    let after: string | undefined;
    for (let page = 0; page < PAGES_PER_LOOKBACK; page += 1) {
      const answer = await store.listOrdersUpdatedSince(since, after);
      orders.push(...answer.orders);
      if (!answer.nextCursor) break;
      after = answer.nextCursor;
    }
    const shipping = orders
      .filter((o) => o.requiresShipping && !o.cancelledAt)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    if (shipping.length > 0) return shipping.slice(0, ORDERS_TO_READ);
  }
  return [];
}

/** Redacted addresses come back null, or with every field null. */
function hasAddress(address: StoreAddress | null): boolean {
  return Boolean(address && (address.address1 || address.city || address.zip || address.name));
}
