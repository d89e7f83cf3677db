import type { FakeOrder } from './model.js';
import {
  type FakeMutation,
  type FakeStoreState,
  type FakeUserError,
  type Result,
  refuse,
} from './state.js';

/**
 * The Admin mutations on an order itself: metafieldsSet, metafieldsDelete, tagsAdd/tagsRemove,
 * orderUpdate.
 */

const METAFIELD_TYPES = new Set([
  'single_line_text_field',
  'multi_line_text_field',
  'number_integer',
  'number_decimal',
  'boolean',
  'json',
  'url',
  'date_time',
]);

export interface MetafieldsSetInput {
  ownerId: string;
  namespace?: string | null;
  key: string;
  value: string;
  type?: string | null;
}

/** metafieldsSet: up to 25, atomic (one bad entry and nothing is written), upsert by key. */
export function setMetafields(
  state: FakeStoreState,
  inputs: MetafieldsSetInput[],
): Result<{ order: FakeOrder; namespace: string; key: string }[]> {
  const userErrors: FakeUserError[] = [];
  if (inputs.length > 25) {
    userErrors.push({
      field: ['metafields'],
      message: 'Exceeded the maximum metafields input limit of 25.',
      code: 'LESS_THAN_OR_EQUAL_TO',
    });
  }
  const entries = inputs.map((input, index) => {
    const at = (name: string) => ['metafields', String(index), name];
    const order = state.findOrder(input.ownerId);
    const namespace = input.namespace ?? '$app';
    const existing = order?.metafields.find(
      (m) => m.namespace === namespace && m.key === input.key,
    );
    const type = input.type ?? existing?.type;
    if (!order) {
      userErrors.push({ field: at('ownerId'), message: 'Owner does not exist.', code: 'INVALID' });
    }
    if (!type) {
      userErrors.push({ field: at('type'), message: "Type can't be blank.", code: 'BLANK' });
    } else if (!METAFIELD_TYPES.has(type)) {
      userErrors.push({ field: at('type'), message: 'Type is invalid.', code: 'INVALID_TYPE' });
    } else if (type === 'single_line_text_field' && /[\r\n]/.test(input.value)) {
      userErrors.push({
        field: at('value'),
        message: 'Value must be a single line text string.',
        code: 'INVALID_VALUE',
      });
    }
    return { order, namespace, key: input.key, value: input.value, type: type ?? '' };
  });
  if (userErrors.length > 0) return { ok: false, userErrors };

  const records = new Map<FakeOrder, FakeMutation & { type: 'metafieldsSet' }>();
  const written: { order: FakeOrder; namespace: string; key: string }[] = [];
  for (const { order, namespace, key, value, type } of entries) {
    if (!order) continue;
    const existing = order.metafields.find((m) => m.namespace === namespace && m.key === key);
    if (existing) Object.assign(existing, { value, type });
    else order.metafields.push({ id: state.newId(), namespace, key, value, type });
    const record = records.get(order) ?? {
      type: 'metafieldsSet',
      at: state.timestamp(),
      orderId: order.id,
      metafields: [],
    };
    record.metafields.push({ namespace, key, type, value });
    records.set(order, record);
    written.push({ order, namespace, key });
  }
  for (const record of records.values()) state.record(record);
  return { ok: true, value: written };
}

export interface MetafieldIdentifierInput {
  ownerId: string;
  namespace: string;
  key: string;
}

/**
 * metafieldsDelete: one answer per identifier, in order, null for a metafield the owner does not
 * have (Shopify documents that as success, not a userError). An owner that does not exist is
 * refused like metafieldsSet refuses it, and then nothing is deleted; Shopify does not document
 * that case.
 */
export function deleteMetafields(
  state: FakeStoreState,
  inputs: MetafieldIdentifierInput[],
): Result<({ order: FakeOrder; namespace: string; key: string } | null)[]> {
  const userErrors: FakeUserError[] = [];
  const owners = inputs.map((input, index) => {
    const order = state.findOrder(input.ownerId);
    if (!order) {
      userErrors.push({
        field: ['metafields', String(index), 'ownerId'],
        message: 'Owner does not exist.',
      });
    }
    return order;
  });
  if (userErrors.length > 0) return { ok: false, userErrors };

  const records = new Map<FakeOrder, FakeMutation & { type: 'metafieldsDelete' }>();
  const deleted = inputs.map(({ namespace, key }, index) => {
    const order = owners[index]!;
    const before = order.metafields.length;
    order.metafields = order.metafields.filter(
      (m) => !(m.namespace === namespace && m.key === key),
    );
    const found = order.metafields.length < before;
    const record = records.get(order) ?? {
      type: 'metafieldsDelete',
      at: state.timestamp(),
      orderId: order.id,
      metafields: [],
    };
    record.metafields.push({ namespace, key, deleted: found });
    records.set(order, record);
    return found ? { order, namespace, key } : null;
  });
  for (const record of records.values()) state.record(record);
  return { ok: true, value: deleted };
}

/** tagsAdd / tagsRemove; tags compare case-insensitively, as in the Shopify admin. */
export function changeTags(
  state: FakeStoreState,
  type: 'tagsAdd' | 'tagsRemove',
  orderGid: string,
  tags: string[],
): Result<FakeOrder> {
  const order = state.findOrder(orderGid);
  if (!order) return refuse(['id'], 'Order does not exist');
  const cleaned = tags.map((t) => t.trim()).filter((t) => t.length > 0);
  const has = (tag: string) => order.tags.some((t) => t.toLowerCase() === tag.toLowerCase());
  if (type === 'tagsAdd') {
    for (const tag of cleaned) if (!has(tag)) order.tags.push(tag);
  } else {
    const removing = new Set(cleaned.map((t) => t.toLowerCase()));
    order.tags = order.tags.filter((t) => !removing.has(t.toLowerCase()));
  }
  state.touch(order);
  state.record({ type, at: state.timestamp(), orderId: order.id, tags: cleaned });
  return { ok: true, value: order };
}

/** orderUpdate, for the fields the connector writes: the note (and tags). */
export function updateOrder(
  state: FakeStoreState,
  input: { id: string; note?: string | null; tags?: string[] | null },
): Result<FakeOrder> {
  const order = state.findOrder(input.id);
  if (!order) return refuse(['id'], 'Order does not exist');
  if (input.note !== undefined) order.note = input.note;
  if (input.tags) order.tags = [...new Set(input.tags)];
  state.touch(order);
  state.record({ type: 'orderUpdate', at: state.timestamp(), orderId: order.id, note: order.note });
  return { ok: true, value: order };
}
