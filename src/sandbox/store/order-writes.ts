import { idFromGid } from './gid.js';
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
    const order = state.findOrder(input.ownerId);
    if (!order) {
      userErrors.push({
        field: ['metafields', String(index), 'ownerId'],
        message: 'Owner does not exist.',
        code: 'INVALID',
      });
    }
    const namespace = input.namespace ?? '$app';
    const existing = order?.metafields.find(
      (m) => m.namespace === namespace && m.key === input.key,
    );
    const type = checkMetafield(input, existing, ['metafields', String(index)], userErrors);
    return { order, namespace, key: input.key, value: input.value, type };
  });
  if (userErrors.length > 0) return { ok: false, userErrors };

  const records = new Map<FakeOrder, FakeMutation & { type: 'metafieldsSet' }>();
  const written: { order: FakeOrder; namespace: string; key: string }[] = [];
  for (const { order, namespace, key, value, type } of entries) {
    if (!order) continue;
    upsertMetafield(state, order, { namespace, key, value, type });
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

/** The type a metafield write is to have, or a userError at `at` (a type, a value, …). */
function checkMetafield(
  input: { value?: string | null; type?: string | null },
  existing: { type: string } | undefined,
  at: string[],
  userErrors: FakeUserError[],
): string {
  const type = input.type ?? existing?.type;
  if (!type) {
    userErrors.push({ field: [...at, 'type'], message: "Type can't be blank.", code: 'BLANK' });
  } else if (!METAFIELD_TYPES.has(type)) {
    userErrors.push({ field: [...at, 'type'], message: 'Type is invalid.', code: 'INVALID_TYPE' });
  } else if (type === 'single_line_text_field' && /[\r\n]/.test(input.value ?? '')) {
    userErrors.push({
      field: [...at, 'value'],
      message: 'Value must be a single line text string.',
      code: 'INVALID_VALUE',
    });
  }
  return type ?? '';
}

/** Sets the value (and type) of the order's metafield of that namespace and key, made if new. */
function upsertMetafield(
  state: FakeStoreState,
  order: FakeOrder,
  { namespace, key, value, type }: { namespace: string; key: string; value: string; type: string },
) {
  const existing = order.metafields.find((m) => m.namespace === namespace && m.key === key);
  if (existing) Object.assign(existing, { value, type });
  else order.metafields.push({ id: state.newId(), namespace, key, value, type });
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

/**
 * MetafieldInput, as OrderInput.metafields takes it: a metafield named by namespace and key is
 * updated if the order has it, else created (which needs both, the type and the value); one named
 * by id is updated.
 */
export interface MetafieldInput {
  id?: string | null;
  namespace?: string | null;
  key?: string | null;
  type?: string | null;
  value?: string | null;
}

/**
 * orderUpdate, for the fields the connector writes: the note, tags and metafields. Refused whole
 * when any part is: nothing changes. Like the other Admin mutations here it sends no webhook;
 * it moves the order's updated_at, which reconciliation sees.
 */
export function updateOrder(
  state: FakeStoreState,
  input: {
    id: string;
    note?: string | null;
    tags?: string[] | null;
    metafields?: MetafieldInput[] | null;
  },
): Result<FakeOrder> {
  const order = state.findOrder(input.id);
  if (!order) return refuse(['id'], 'Order does not exist');
  const userErrors: FakeUserError[] = [];
  const writes = (input.metafields ?? []).map((metafield, index) => {
    const at = ['metafields', String(index)];
    const byId = metafield.id
      ? order.metafields.find((m) => m.id === idFromGid('Metafield', metafield.id))
      : undefined;
    if (metafield.id && !byId) {
      userErrors.push({ field: [...at, 'id'], message: 'Metafield does not exist.' });
    }
    const namespace = byId?.namespace ?? metafield.namespace ?? undefined;
    const key = byId?.key ?? metafield.key ?? undefined;
    const existing = order.metafields.find((m) => m.namespace === namespace && m.key === key);
    if (!existing && !metafield.id) {
      if (!namespace) {
        userErrors.push({ field: [...at, 'namespace'], message: "Namespace can't be blank." });
      }
      if (!key) userErrors.push({ field: [...at, 'key'], message: "Key can't be blank." });
    }
    if (metafield.value === undefined || metafield.value === null) {
      userErrors.push({ field: [...at, 'value'], message: "Value can't be blank." });
    }
    const type = checkMetafield(metafield, existing, at, userErrors);
    return { namespace: namespace ?? '', key: key ?? '', value: metafield.value ?? '', type };
  });
  if (userErrors.length > 0) return { ok: false, userErrors };
  if (input.note !== undefined) order.note = input.note;
  if (input.tags) order.tags = [...new Set(input.tags)];
  for (const write of writes) upsertMetafield(state, order, write);
  state.touch(order);
  state.record({
    type: 'orderUpdate',
    at: state.timestamp(),
    orderId: order.id,
    note: order.note,
    ...(writes.length > 0 ? { metafields: writes } : {}),
  });
  return { ok: true, value: order };
}
