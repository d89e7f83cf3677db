import { indexConnection, type PageArgs } from './connections.js';
import { gid } from './gid.js';
import type {
  FakeFulfillment,
  FakeFulfillmentOrder,
  FakeLineItem,
  FakeMetafield,
  FakeOrder,
} from './model.js';

/**
 * GraphQL-shaped objects made from the fake's records. Fields that take arguments are functions
 * of those arguments; graphql-js calls them while resolving a selection.
 */

export function orderView(order: FakeOrder) {
  return {
    __typename: 'Order',
    id: gid('Order', order.id),
    name: order.name,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    test: order.test,
    cancelledAt: order.cancelledAt,
    displayFinancialStatus: order.financialStatus,
    displayFulfillmentStatus: order.fulfillmentStatus,
    tags: [...order.tags],
    // Shopify: false for digital-only orders.
    requiresShipping: order.lineItems.some((item) => item.requiresShipping),
    email: order.email,
    phone: order.phone,
    note: order.note,
    shippingAddress: order.shippingAddress && {
      ...order.shippingAddress,
      countryCodeV2: order.shippingAddress.countryCode,
    },
    lineItems: (args: PageArgs) => indexConnection(order.lineItems.map(lineItemView), args),
    fulfillmentOrders: (args: PageArgs) =>
      indexConnection(
        order.fulfillmentOrders.map((fo) => fulfillmentOrderView(order, fo)),
        args,
      ),
    fulfillments: ({ first }: { first?: number | null }) =>
      order.fulfillments.slice(0, first ?? undefined).map(fulfillmentView),
    metafield: ({ namespace, key }: { namespace?: string | null; key: string }) => {
      const found = order.metafields.find(
        (m) => m.namespace === (namespace ?? '$app') && m.key === key,
      );
      return found ? metafieldView(found) : null;
    },
    metafields: (args: PageArgs & { namespace?: string | null }) =>
      indexConnection(
        order.metafields
          .filter((m) => !args.namespace || m.namespace === args.namespace)
          .map(metafieldView),
        args,
      ),
  };
}

export function fulfillmentOrderView(order: FakeOrder, fo: FakeFulfillmentOrder) {
  return {
    id: gid('FulfillmentOrder', fo.id),
    status: fo.status,
    lineItems: (args: PageArgs) =>
      indexConnection(
        fo.lineItems.map((line) => ({
          id: gid('FulfillmentOrderLineItem', line.id),
          totalQuantity: line.totalQuantity,
          remainingQuantity: line.remainingQuantity,
          lineItem: lineItemView(order.lineItems.find((l) => l.id === line.lineItemId)!),
        })),
        args,
      ),
  };
}

export function lineItemView(item: FakeLineItem) {
  const product = { id: gid('Product', item.id), productType: item.productType };
  return {
    id: gid('LineItem', item.id),
    title: item.title,
    quantity: item.quantity,
    currentQuantity: item.currentQuantity,
    requiresShipping: item.requiresShipping,
    product,
    variant: {
      id: gid('ProductVariant', item.id),
      product,
      inventoryItem: {
        id: gid('InventoryItem', item.id),
        measurement: {
          id: gid('InventoryItemMeasurement', item.id),
          // Shopify reports a variant without a weight as 0 grams.
          weight: item.weight ?? { unit: 'GRAMS', value: 0 },
        },
      },
    },
  };
}

export function metafieldView(m: FakeMetafield) {
  return {
    id: gid('Metafield', m.id),
    namespace: m.namespace,
    key: m.key,
    type: m.type,
    value: m.value,
  };
}

export function fulfillmentView(f: FakeFulfillment) {
  return {
    id: gid('Fulfillment', f.id),
    status: f.status,
    createdAt: f.createdAt,
    trackingInfo: ({ first }: { first?: number | null }) =>
      f.trackingInfo.slice(0, first ?? undefined),
  };
}

export function fulfillmentEventView(e: FakeFulfillment['events'][number]) {
  return { id: gid('FulfillmentEvent', e.id), status: e.status, happenedAt: e.happenedAt };
}
