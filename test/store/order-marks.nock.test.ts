import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreNotFoundError, StoreUserError } from '../../src/store/errors.js';
import { createOrderMarks } from '../../src/store/order-marks/order-marks.js';
import { testTransport } from './helpers.js';
import { answer } from './nock-graphql.js';

/** Order marks on their own transport: no order reading, no fulfillments. */
const marks = () => createOrderMarks(testTransport());

afterEach(() => {
  nock.cleanAll();
});

describe('writeOrderMarks: every change an order needs in one request', () => {
  it('sends one WriteOrderMarks document with only the parts that change', async () => {
    const { requests } = answer({
      data: { orderUpdate: { userErrors: [] }, tagsAdd: { userErrors: [] } },
    });

    await marks().writeOrderMarks('5551234', {
      setMetafields: [
        {
          namespace: 'partner_shipment',
          key: 'order_number',
          value: 'PS-7',
          type: 'single_line_text_field',
        },
      ],
      deleteMetafields: [],
      addTags: ['shipment-registered'],
      removeTags: [],
    });

    expect(requests).toHaveLength(1);
    const query = requests[0]?.query ?? '';
    expect(query).toMatch(/mutation WriteOrderMarks/);
    // The order's own mutation: a flat 10 points, where metafieldsSet would charge 20.
    expect(query).toMatch(/orderUpdate\(/);
    expect(query).not.toMatch(/metafieldsSet/);
    expect(query).toMatch(/tagsAdd\(/);
    expect(query).not.toMatch(/metafieldsDelete|tagsRemove/);
    expect(requests[0]?.variables).toEqual({
      id: 'gid://shopify/Order/5551234',
      order: {
        id: 'gid://shopify/Order/5551234',
        metafields: [
          {
            namespace: 'partner_shipment',
            key: 'order_number',
            value: 'PS-7',
            type: 'single_line_text_field',
          },
        ],
      },
      addTags: ['shipment-registered'],
    });
  });

  it('sends all four in one request when all four are needed', async () => {
    const { requests } = answer({
      data: {
        orderUpdate: { userErrors: [] },
        metafieldsDelete: { userErrors: [] },
        tagsAdd: { userErrors: [] },
        tagsRemove: { userErrors: [] },
      },
    });

    await marks().writeOrderMarks('5551234', {
      setMetafields: [{ namespace: 'p', key: 'k', value: 'v', type: 'single_line_text_field' }],
      deleteMetafields: [{ namespace: 'p', key: 'error' }],
      addTags: ['shipment-registered'],
      removeTags: ['shipment-error'],
    });

    expect(requests).toHaveLength(1);
    expect(requests[0]?.variables).toMatchObject({
      deleteMetafields: [{ ownerId: 'gid://shopify/Order/5551234', namespace: 'p', key: 'error' }],
      removeTags: ['shipment-error'],
    });
  });

  it('sends nothing when nothing differs', async () => {
    const scope = nock('https://demo.myshopify.com').post(/.*/).reply(500);

    await marks().writeOrderMarks('5551234', {
      setMetafields: [],
      deleteMetafields: [],
      addTags: [],
      removeTags: [],
    });
    await marks().writeOrderMarks('5551234', {});

    expect(scope.isDone()).toBe(false);
  });

  it("turns any part's userErrors into one StoreUserError", async () => {
    answer({
      data: {
        orderUpdate: { userErrors: [] },
        tagsAdd: { userErrors: [{ field: ['id'], message: 'Order does not exist' }] },
      },
    });

    const error = await marks()
      .writeOrderMarks('5551234', {
        setMetafields: [{ namespace: 'p', key: 'k', value: 'v', type: 'single_line_text_field' }],
        addTags: ['shipment-registered'],
      })
      .catch((e) => e);

    expect(error).toBeInstanceOf(StoreUserError);
    expect(error.message).toBe('Shopify refused WriteOrderMarks: id: Order does not exist');
  });

  it("reads the order's marks in one query: the connector's tags, order number, error", async () => {
    const { requests } = answer({
      data: {
        order: {
          tags: ['vip', 'Shipment-Error'],
          orderNumber: { value: 'PS-7' },
          error: { id: 'gid://shopify/Metafield/1' },
        },
      },
    });

    expect(await marks().readOrderMarks('5551234')).toEqual({
      tags: ['shipment-error'],
      orderNumber: 'PS-7',
      error: true,
    });
    expect(requests[0]?.query).toMatch(/query GetOrderMarks/);
  });
});

describe('order marks', () => {
  it('sets metafields on the order and turns userErrors into StoreUserError with field paths', async () => {
    const { requests } = answer({
      data: {
        orderUpdate: {
          order: null,
          userErrors: [{ field: ['metafields', '0', 'value'], message: 'Value is too long' }],
        },
      },
    });

    const error = await marks()
      .setOrderMetafields('5551234', [
        { namespace: 'shipping', key: 'reference', value: 'x', type: 'single_line_text_field' },
      ])
      .catch((e) => e);

    expect(requests[0]?.query).toMatch(/orderUpdate\(input: \$order\)/);
    expect(requests[0]?.variables).toEqual({
      order: {
        id: 'gid://shopify/Order/5551234',
        metafields: [
          { namespace: 'shipping', key: 'reference', value: 'x', type: 'single_line_text_field' },
        ],
      },
    });
    expect(error).toBeInstanceOf(StoreUserError);
    expect(error.userErrors).toEqual([
      { field: ['metafields', '0', 'value'], message: 'Value is too long' },
    ]);
    expect(error.message).toBe(
      'Shopify refused SetOrderMetafields: metafields.0.value: Value is too long',
    );
  });

  it('refuses more than 25 metafields in one call without sending', async () => {
    const entries = Array.from({ length: 26 }, (_, i) => ({
      namespace: 'n',
      key: `k${i}`,
      value: 'v',
      type: 'single_line_text_field' as const,
    }));
    await expect(marks().setOrderMetafields('1', entries)).rejects.toBeInstanceOf(StoreUserError);
  });

  it('deletes metafields by owner, namespace and key; one the order lacks is no error', async () => {
    // As Shopify documents metafieldsDelete: a null entry for a metafield that does not exist.
    const { requests } = answer({
      data: {
        metafieldsDelete: {
          deletedMetafields: [
            {
              ownerId: 'gid://shopify/Order/5551234',
              namespace: 'partner_shipment',
              key: 'error',
            },
            null,
          ],
          userErrors: [],
        },
      },
    });

    await marks().deleteOrderMetafields('5551234', [
      { namespace: 'partner_shipment', key: 'error' },
      { namespace: 'partner_shipment', key: 'never_set' },
    ]);

    expect(requests).toHaveLength(1);
    expect(requests[0]?.query).toContain('metafieldsDelete(metafields: $metafields)');
    expect(requests[0]?.variables).toEqual({
      metafields: [
        { ownerId: 'gid://shopify/Order/5551234', namespace: 'partner_shipment', key: 'error' },
        { ownerId: 'gid://shopify/Order/5551234', namespace: 'partner_shipment', key: 'never_set' },
      ],
    });
  });

  it('turns userErrors of metafieldsDelete into StoreUserError', async () => {
    answer({
      data: {
        metafieldsDelete: {
          deletedMetafields: null,
          userErrors: [{ field: ['metafields', '0', 'ownerId'], message: 'Owner does not exist.' }],
        },
      },
    });
    const error = await marks()
      .deleteOrderMetafields('5551234', [{ namespace: 'partner_shipment', key: 'error' }])
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreUserError);
    expect(error.message).toBe(
      'Shopify refused DeleteOrderMetafields: metafields.0.ownerId: Owner does not exist.',
    );
  });

  it('sends no metafieldsDelete for no keys (Shopify wants one) or more than 25', async () => {
    // No interceptor: any request would fail with "no match".
    await marks().deleteOrderMetafields('5551234', []);
    const keys = Array.from({ length: 26 }, (_, i) => ({ namespace: 'n', key: `k${i}` }));
    await expect(marks().deleteOrderMetafields('5551234', keys)).rejects.toBeInstanceOf(
      StoreUserError,
    );
  });

  it('adds and removes tags', async () => {
    const added = answer({ data: { tagsAdd: { node: { id: 'x' }, userErrors: [] } } });
    const removed = answer({ data: { tagsRemove: { node: { id: 'x' }, userErrors: [] } } });
    const client = marks();
    await client.addOrderTags('5551234', ['shipment-registered']);
    await client.removeOrderTags('5551234', ['shipment-failed']);
    expect(added.requests[0]?.query).toContain('tagsAdd');
    expect(added.requests[0]?.variables).toEqual({
      id: 'gid://shopify/Order/5551234',
      tags: ['shipment-registered'],
    });
    expect(removed.requests[0]?.query).toContain('tagsRemove');
    expect(removed.requests[0]?.variables?.tags).toEqual(['shipment-failed']);
  });

  it('appends a line to the existing note', async () => {
    answer({ data: { order: { id: 'gid://shopify/Order/1', note: 'Leave at the door' } } });
    const update = answer({ data: { orderUpdate: { order: null, userErrors: [] } } });
    await marks().appendOrderNote('1', 'Shipment registered: 1');
    expect(update.requests[0]?.variables).toEqual({
      input: { id: 'gid://shopify/Order/1', note: 'Leave at the door\nShipment registered: 1' },
    });
  });

  it('does not append a line the note already has', async () => {
    const read = answer({
      data: { order: { id: 'gid://shopify/Order/1', note: 'a\nShipment registered: 1' } },
    });
    await marks().appendOrderNote('1', 'Shipment registered: 1');
    expect(read.scope.isDone()).toBe(true);
    // No second interceptor: an orderUpdate would fail with "no match".
  });

  it('throws StoreNotFoundError when appending a note to a missing order', async () => {
    answer({ data: { order: null } });
    await expect(marks().appendOrderNote('1', 'x')).rejects.toBeInstanceOf(StoreNotFoundError);
  });
});
