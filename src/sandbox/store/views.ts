import { definitionCategory } from './app-setup.js';
import { indexConnection, type PageArgs } from './connections.js';
import { supportedActions } from './fulfillment-orders.js';
import { gid } from './gid.js';
import type {
  FakeFulfillment,
  FakeFulfillmentEvent,
  FakeFulfillmentOrder,
  FakeLineItem,
  FakeLocation,
  FakeMetafield,
  FakeMetafieldDefinition,
  FakeOrder,
  FakeWebhookSubscription,
} from './model.js';
import { seesFulfillmentOrdersAt } from './scopes.js';
import type { FakeStoreState } from './state.js';

/**
 * GraphQL-shaped objects made from the fake's records. Fields that take arguments are functions
 * of those arguments; graphql-js calls them while resolving a selection.
 */

export function orderView(state: FakeStoreState, order: FakeOrder) {
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
    lineItems: (args: PageArgs) =>
      indexConnection(
        order.lineItems.map((item) => lineItemView(order, item)),
        args,
      ),
    fulfillmentOrders: (args: PageArgs) =>
      indexConnection(
        order.fulfillmentOrders
          .filter((fo) =>
            seesFulfillmentOrdersAt(state.app.accessScopes, state.locationById(fo.locationId)),
          )
          .map((fo) => fulfillmentOrderView(state, order, fo)),
        args,
      ),
    fulfillmentsCount: { count: order.fulfillments.length, precision: 'EXACT' },
    fulfillments: ({ first }: { first?: number | null }) =>
      order.fulfillments.slice(0, first ?? undefined).map((f) => fulfillmentView(state, order, f)),
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

export function fulfillmentOrderView(
  state: FakeStoreState,
  order: FakeOrder,
  fo: FakeFulfillmentOrder,
) {
  const location = state.locationById(fo.locationId);
  return {
    __typename: 'FulfillmentOrder',
    id: gid('FulfillmentOrder', fo.id),
    status: fo.status,
    requestStatus: fo.requestStatus,
    fulfillAt: fo.fulfillAt,
    updatedAt: order.updatedAt,
    assignedLocation: { name: location.name, location: locationView(location) },
    deliveryMethod: { id: gid('DeliveryMethod', fo.id), methodType: fo.deliveryMethod },
    supportedActions: supportedActions(state, fo).map((action) => ({ action })),
    fulfillmentHolds: fo.holds.map((hold) => ({
      id: gid('FulfillmentHold', hold.id),
      reason: hold.reason,
      reasonNotes: hold.reasonNotes,
      displayReason: HOLD_DISPLAY_REASONS[hold.reason] ?? 'Other',
      heldByRequestingApp: hold.heldByApp,
    })),
    lineItems: (args: PageArgs) =>
      indexConnection(
        fo.lineItems.map((line) => ({
          id: gid('FulfillmentOrderLineItem', line.id),
          totalQuantity: line.totalQuantity,
          remainingQuantity: line.remainingQuantity,
          lineItem: lineItemView(order, order.lineItems.find((l) => l.id === line.lineItemId)!),
        })),
        args,
      ),
  };
}

export function lineItemView(order: FakeOrder, item: FakeLineItem) {
  const product = { id: gid('Product', item.id), productType: item.productType };
  return {
    id: gid('LineItem', item.id),
    title: item.title,
    quantity: item.quantity,
    currentQuantity: item.currentQuantity,
    unfulfilledQuantity: unfulfilledQuantity(order, item),
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

export function fulfillmentView(state: FakeStoreState, order: FakeOrder, f: FakeFulfillment) {
  return {
    id: gid('Fulfillment', f.id),
    status: f.status,
    displayStatus: f.displayStatus,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    deliveredAt: f.deliveredAt,
    inTransitAt: f.inTransitAt,
    totalQuantity: f.lineItems.reduce((sum, l) => sum + l.quantity, 0),
    location: locationView(state.locationById(f.locationId)),
    trackingInfo: ({ first }: { first?: number | null }) =>
      f.trackingInfo.slice(0, first ?? undefined),
    fulfillmentLineItems: (args: PageArgs) => indexConnection(fulfillmentLineItems(order, f), args),
    events: (args: PageArgs) => indexConnection(f.events.map(fulfillmentEventView), args),
    fulfillmentOrders: (args: PageArgs) =>
      indexConnection(
        order.fulfillmentOrders
          .filter((fo) => f.fulfillmentOrderIds.includes(fo.id))
          .map((fo) => fulfillmentOrderView(state, order, fo)),
        args,
      ),
  };
}

/** Shopify keeps one FulfillmentLineItem per order line item a fulfillment covers. */
function fulfillmentLineItems(order: FakeOrder, f: FakeFulfillment) {
  const byItem = new Map<string, number>();
  for (const { fulfillmentOrderLineItemId, quantity } of f.lineItems) {
    const line = order.fulfillmentOrders
      .flatMap((fo) => fo.lineItems)
      .find((l) => l.id === fulfillmentOrderLineItemId);
    if (line) byItem.set(line.lineItemId, (byItem.get(line.lineItemId) ?? 0) + quantity);
  }
  return [...byItem].map(([lineItemId, quantity]) => ({
    id: gid('FulfillmentLineItem', `${f.id}${lineItemId}`),
    quantity,
    lineItem: lineItemView(order, order.lineItems.find((item) => item.id === lineItemId)!),
  }));
}

export function fulfillmentEventView(e: FakeFulfillmentEvent) {
  return {
    id: gid('FulfillmentEvent', e.id),
    status: e.status,
    happenedAt: e.happenedAt,
    createdAt: e.createdAt,
    message: e.message,
  };
}

export function locationView(location: FakeLocation) {
  return {
    id: gid('Location', location.id),
    name: location.name,
    isFulfillmentService: location.isFulfillmentService,
    isActive: true,
    fulfillmentService: location.isFulfillmentService
      ? {
          id: gid('FulfillmentService', location.id),
          serviceName: location.name,
          handle: location.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        }
      : null,
  };
}

/**
 * LineItem.unfulfilledQuantity: the units still to fulfil across every fulfillment order that
 * can still be fulfilled, a fulfillment service's included (whatever the app's scopes).
 */
function unfulfilledQuantity(order: FakeOrder, item: FakeLineItem): number {
  let left = 0;
  for (const fo of order.fulfillmentOrders) {
    if (['CLOSED', 'CANCELLED', 'INCOMPLETE'].includes(fo.status)) continue;
    for (const line of fo.lineItems)
      if (line.lineItemId === item.id) left += line.remainingQuantity;
  }
  return Math.min(left, item.currentQuantity);
}

/** How the admin words each hold reason (FulfillmentHold.displayReason). */
const HOLD_DISPLAY_REASONS: Record<string, string> = {
  AWAITING_PAYMENT: 'Awaiting payment',
  AWAITING_RETURN_ITEMS: 'Awaiting return items',
  HIGH_RISK_OF_FRAUD: 'High risk of fraud',
  INCORRECT_ADDRESS: 'Incorrect address',
  INVENTORY_OUT_OF_STOCK: 'Inventory out of stock',
  ONLINE_STORE_POST_PURCHASE_CROSS_SELL: 'Post purchase upsell',
  OTHER: 'Other',
  UNKNOWN_DELIVERY_DATE: 'Unknown delivery date',
};

export function webhookSubscriptionView(s: FakeWebhookSubscription) {
  return {
    id: gid('WebhookSubscription', s.id),
    topic: s.topic,
    uri: s.uri,
    format: s.format,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

export function metafieldDefinitionView(d: FakeMetafieldDefinition) {
  return {
    id: gid('MetafieldDefinition', d.id),
    name: d.name,
    namespace: d.namespace,
    key: d.key,
    description: d.description,
    type: { name: d.type, category: definitionCategory(d.type) },
    ownerType: d.ownerType,
  };
}
