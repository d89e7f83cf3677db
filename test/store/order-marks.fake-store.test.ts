import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeStore } from '../../src/sandbox/store/index.js';
import { StoreUserError } from '../../src/store/errors.js';
import { createOrderMarks } from '../../src/store/order-marks/order-marks.js';
import { startTestStore, testTransport } from './helpers.js';

/** Order marks built alone, as the mark-order job uses them. */
const marksFor = (store: FakeStore) => createOrderMarks(testTransport({ adminApiUrl: store.url }));

describe('order marks against the fake store, writing', () => {
  let store: FakeStore;
  beforeAll(async () => {
    store = await startTestStore();
  });
  afterAll(() => store.close());

  it('writes metafields, tags and a note line, and the store records each', async () => {
    const client = marksFor(store);
    await client.setOrderMetafields('5550001', [
      { namespace: 'shipping', key: 'reference', value: '5550001', type: 'single_line_text_field' },
      {
        namespace: 'shipping',
        key: 'error',
        value: 'line one\nline two',
        type: 'multi_line_text_field',
      },
    ]);
    await client.addOrderTags('5550001', ['shipment-registered', 'shipment-error']);
    await client.removeOrderTags('5550001', ['shipment-error']);
    await client.appendOrderNote('5550001', 'Shipment registered as 5550001.');
    await client.appendOrderNote('5550001', 'Shipment registered as 5550001.');
    await client.appendOrderNote('5550001', 'Second line.');

    const order = store.order('5550001');
    expect(
      order?.metafields.map(({ namespace, key, type, value }) => ({ namespace, key, type, value })),
    ).toEqual([
      { namespace: 'shipping', key: 'reference', type: 'single_line_text_field', value: '5550001' },
      {
        namespace: 'shipping',
        key: 'error',
        type: 'multi_line_text_field',
        value: 'line one\nline two',
      },
    ]);
    expect(order?.tags).toEqual(['newsletter', 'shipment-registered']);
    expect(order?.note).toBe('Shipment registered as 5550001.\nSecond line.');
    // Metafields through the order's own mutation, as the note.
    expect(store.mutations.map((m) => m.type)).toEqual([
      'orderUpdate',
      'tagsAdd',
      'tagsRemove',
      'orderUpdate',
      'orderUpdate',
    ]);
  });
});

describe('order marks against the fake store, deleting metafields', () => {
  let store: FakeStore;
  beforeAll(async () => {
    store = await startTestStore();
  });
  afterAll(() => store.close());

  it('deletes the named metafields, leaves the others, and takes a missing one as done', async () => {
    const client = marksFor(store);
    await client.setOrderMetafields('5550003', [
      {
        namespace: 'partner_shipment',
        key: 'status',
        value: 'error',
        type: 'single_line_text_field',
      },
      {
        namespace: 'partner_shipment',
        key: 'error',
        value: 'no\npostcode',
        type: 'multi_line_text_field',
      },
      { namespace: 'other_app', key: 'error', value: 'theirs', type: 'single_line_text_field' },
    ]);

    await client.deleteOrderMetafields('5550003', [
      { namespace: 'partner_shipment', key: 'error' },
      { namespace: 'partner_shipment', key: 'order_number' },
    ]);
    // Again, as a retried job would: nothing left to delete, and no error.
    await client.deleteOrderMetafields('5550003', [
      { namespace: 'partner_shipment', key: 'error' },
    ]);

    expect(
      store.order('5550003')?.metafields.map(({ namespace, key }) => `${namespace}.${key}`),
    ).toEqual(['partner_shipment.status', 'other_app.error']);
    const deletes = store.mutations.filter((m) => m.type === 'metafieldsDelete');
    expect(deletes).toEqual([
      {
        type: 'metafieldsDelete',
        at: expect.any(String),
        orderId: '5550003',
        metafields: [
          { namespace: 'partner_shipment', key: 'error', deleted: true },
          { namespace: 'partner_shipment', key: 'order_number', deleted: false },
        ],
      },
      {
        type: 'metafieldsDelete',
        at: expect.any(String),
        orderId: '5550003',
        metafields: [{ namespace: 'partner_shipment', key: 'error', deleted: false }],
      },
    ]);
  });
});

describe('order marks against the fake store, refusals', () => {
  let store: FakeStore;
  beforeAll(async () => {
    store = await startTestStore();
  });
  afterAll(() => store.close());

  it('turns userErrors into StoreUserError with the field path, and writes nothing', async () => {
    const before = store.mutations.length;
    const error = await marksFor(store)
      .setOrderMetafields('5550001', [
        { namespace: 'shipping', key: 'ok', value: 'fine', type: 'single_line_text_field' },
        { namespace: 'shipping', key: 'bad', value: 'two\nlines', type: 'single_line_text_field' },
      ])
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreUserError);
    expect(error.userErrors).toEqual([
      {
        field: ['metafields', '1', 'value'],
        message: 'Value must be a single line text string.',
      },
    ]);
    expect(store.mutations.length).toBe(before);
    expect(store.order('5550001')?.metafields).toEqual([]);
  });

  it('passes a refusal (an order the store does not have) through as StoreUserError', async () => {
    const before = store.mutations.length;
    const error = await marksFor(store)
      .deleteOrderMetafields('1', [{ namespace: 'partner_shipment', key: 'error' }])
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreUserError);
    expect(error.userErrors).toEqual([
      { field: ['metafields', '0', 'ownerId'], message: 'Owner does not exist.' },
    ]);
    expect(store.mutations.length).toBe(before);
  });
});
