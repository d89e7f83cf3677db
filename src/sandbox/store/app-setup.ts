import { idFromGid } from './gid.js';
import type { FakeMetafieldDefinition, FakeWebhookSubscription } from './model.js';
import type { FakeStoreState, Result } from './state.js';
import { refuse } from './state.js';

/** The app's setup on the store (model.ts's AppSetup): webhook subscriptions, metafield definitions. */

export interface WebhookSubscriptionInput {
  uri?: string | null;
  callbackUrl?: string | null;
  format?: 'JSON' | 'XML' | null;
}

/** webhookSubscriptionCreate: one subscription per topic and address. */
export function createWebhookSubscription(
  state: FakeStoreState,
  topic: string,
  input: WebhookSubscriptionInput,
): Result<FakeWebhookSubscription> {
  const address = checkAddress(state, input, topic, null);
  if (!address.ok) return address;
  const now = state.timestamp();
  const subscription: FakeWebhookSubscription = {
    id: state.newId(),
    topic,
    uri: address.value,
    format: input.format ?? 'JSON',
    createdAt: now,
    updatedAt: now,
  };
  state.app.webhookSubscriptions.push(subscription);
  return { ok: true, value: subscription };
}

/** webhookSubscriptionUpdate: a new address or format for an existing subscription. */
export function updateWebhookSubscription(
  state: FakeStoreState,
  id: string,
  input: WebhookSubscriptionInput,
): Result<FakeWebhookSubscription> {
  const subscription = state.app.webhookSubscriptions.find(
    (s) => s.id === idFromGid('WebhookSubscription', id),
  );
  if (!subscription) return refuse(['id'], 'Webhook subscription does not exist');
  if (input.uri != null || input.callbackUrl != null) {
    const address = checkAddress(state, input, subscription.topic, subscription.id);
    if (!address.ok) return address;
    subscription.uri = address.value;
  }
  if (input.format) subscription.format = input.format;
  subscription.updatedAt = state.timestamp();
  return { ok: true, value: subscription };
}

/**
 * Shopify takes https addresses (and Pub/Sub, EventBridge ones). The fake also takes plain http
 * on loopback, so a local connector can be subscribed in demos.
 */
function checkAddress(
  state: FakeStoreState,
  input: WebhookSubscriptionInput,
  topic: string,
  ownId: string | null,
): Result<string> {
  const uri = input.uri ?? input.callbackUrl ?? null;
  const field = ['webhookSubscription', input.uri != null ? 'uri' : 'callbackUrl'];
  if (!uri) return refuse(field, "Address can't be blank");
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return refuse(field, 'Address is invalid');
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  const external = ['pubsub:', 'arn:'].includes(url.protocol);
  if (!(url.protocol === 'https:' || external || (url.protocol === 'http:' && loopback))) {
    return refuse(field, `Address protocol ${url.protocol}// is not supported`);
  }
  const taken = state.app.webhookSubscriptions.some(
    (s) => s.topic === topic && s.uri === uri && s.id !== ownId,
  );
  if (taken) return refuse(field, 'Address for this topic has already been taken');
  return { ok: true, value: uri };
}

/** The metafield types the fake knows a definition of (a subset of Shopify's). */
const DEFINITION_TYPES: Record<string, string> = {
  single_line_text_field: 'TEXT',
  multi_line_text_field: 'TEXT',
  number_integer: 'NUMBER',
  number_decimal: 'NUMBER',
  boolean: 'TRUE_FALSE',
  json: 'JSON',
  url: 'URL',
  date_time: 'DATE_TIME',
};

export const definitionCategory = (type: string) => DEFINITION_TYPES[type] ?? 'TEXT';

export interface MetafieldDefinitionInput {
  name: string;
  namespace?: string | null;
  key: string;
  type: string;
  ownerType: string;
  description?: string | null;
  pin?: boolean | null;
}

/** metafieldDefinitionCreate: one definition per owner type, namespace and key. */
export function createMetafieldDefinition(
  state: FakeStoreState,
  input: MetafieldDefinitionInput,
): Result<FakeMetafieldDefinition> {
  const namespace = input.namespace ?? '$app';
  if (!(input.type in DEFINITION_TYPES)) {
    return refuse(['definition', 'type'], 'Type is not included in the list', 'INCLUSION');
  }
  if (input.name.trim() === '') {
    return refuse(['definition', 'name'], "Name can't be blank", 'BLANK');
  }
  const taken = state.app.metafieldDefinitions.some(
    (d) => d.ownerType === input.ownerType && d.namespace === namespace && d.key === input.key,
  );
  if (taken) {
    return refuse(
      ['definition', 'key'],
      `Key is in use for ${ownerLabel(input.ownerType)} metafields on the '${namespace}' namespace.`,
      'TAKEN',
    );
  }
  const definition: FakeMetafieldDefinition = {
    id: state.newId(),
    name: input.name,
    namespace,
    key: input.key,
    type: input.type,
    ownerType: input.ownerType,
    description: input.description ?? null,
    pinned: input.pin ?? false,
  };
  state.app.metafieldDefinitions.push(definition);
  return { ok: true, value: definition };
}

/** ORDER → Order, PRODUCTVARIANT → Productvariant: how Shopify names the owner in messages. */
const ownerLabel = (ownerType: string) =>
  ownerType.charAt(0) + ownerType.slice(1).toLowerCase().replace(/_/g, ' ');
