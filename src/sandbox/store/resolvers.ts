import { type OrdersArgs, orderPage } from './connections.js';
import {
  createFulfillment,
  createFulfillmentEvent,
  type FulfillmentInput,
  updateTracking,
} from './fulfillment-writes.js';
import { gid } from './gid.js';
import {
  changeTags,
  deleteMetafields,
  type MetafieldIdentifierInput,
  type MetafieldsSetInput,
  setMetafields,
  updateOrder,
} from './order-writes.js';
import type { FakeStoreState } from './state.js';
import {
  fulfillmentEventView,
  fulfillmentOrderView,
  fulfillmentView,
  metafieldView,
  orderView,
} from './views.js';

/** Root resolvers for the fake schema: one per query or mutation root field the connector uses. */
export function createRootValue(state: FakeStoreState, shop = 'demo.myshopify.com') {
  return {
    shop: () => ({ name: shop.replace(/\.myshopify\.com$/, '') }),

    order: ({ id }: { id: string }) => {
      const order = state.findOrder(id);
      return order ? orderView(order) : null;
    },

    fulfillmentOrder: ({ id }: { id: string }) => {
      const found = state.findFulfillmentOrder(id);
      return found ? fulfillmentOrderView(found.order, found.fulfillmentOrder) : null;
    },

    orders: (args: OrdersArgs) => {
      const page = orderPage([...state.orders.values()], args);
      const nodes = page.orders.map(orderView);
      const first = page.orders[0];
      const last = page.orders.at(-1);
      return {
        nodes,
        edges: nodes.map((node, i) => ({ node, cursor: page.cursorOf(page.orders[i]!) })),
        pageInfo: {
          hasNextPage: page.hasNextPage,
          hasPreviousPage: page.hasPreviousPage,
          startCursor: first ? page.cursorOf(first) : null,
          endCursor: last ? page.cursorOf(last) : null,
        },
      };
    },

    metafieldsSet: ({ metafields }: { metafields: MetafieldsSetInput[] }) => {
      const result = setMetafields(state, metafields);
      if (!result.ok) return { metafields: null, userErrors: result.userErrors };
      const views = result.value.map(({ order, namespace, key }) =>
        metafieldView(order.metafields.find((m) => m.namespace === namespace && m.key === key)!),
      );
      return { metafields: views, userErrors: [] };
    },

    metafieldsDelete: ({ metafields }: { metafields: MetafieldIdentifierInput[] }) => {
      const result = deleteMetafields(state, metafields);
      if (!result.ok) return { deletedMetafields: null, userErrors: result.userErrors };
      const identifiers = result.value.map((deleted) =>
        deleted
          ? {
              ownerId: gid('Order', deleted.order.id),
              namespace: deleted.namespace,
              key: deleted.key,
            }
          : null,
      );
      return { deletedMetafields: identifiers, userErrors: [] };
    },

    tagsAdd: ({ id, tags }: { id: string; tags: string[] }) => {
      const result = changeTags(state, 'tagsAdd', id, tags);
      return result.ok
        ? { node: orderView(result.value), userErrors: [] }
        : { node: null, userErrors: result.userErrors };
    },

    tagsRemove: ({ id, tags }: { id: string; tags: string[] }) => {
      const result = changeTags(state, 'tagsRemove', id, tags);
      return result.ok
        ? { node: orderView(result.value), userErrors: [] }
        : { node: null, userErrors: result.userErrors };
    },

    orderUpdate: ({
      input,
    }: {
      input: { id: string; note?: string | null; tags?: string[] | null };
    }) => {
      const result = updateOrder(state, input);
      return result.ok
        ? { order: orderView(result.value), userErrors: [] }
        : { order: null, userErrors: result.userErrors };
    },

    fulfillmentCreate: ({ fulfillment }: { fulfillment: FulfillmentInput }) => {
      const result = createFulfillment(state, fulfillment);
      return result.ok
        ? { fulfillment: fulfillmentView(result.value.fulfillment), userErrors: [] }
        : { fulfillment: null, userErrors: result.userErrors };
    },

    fulfillmentTrackingInfoUpdate: (args: {
      fulfillmentId: string;
      trackingInfoInput: { company?: string | null; number?: string | null; url?: string | null };
      notifyCustomer?: boolean | null;
    }) => {
      const result = updateTracking(
        state,
        args.fulfillmentId,
        args.trackingInfoInput,
        args.notifyCustomer ?? false,
      );
      return result.ok
        ? { fulfillment: fulfillmentView(result.value), userErrors: [] }
        : { fulfillment: null, userErrors: result.userErrors };
    },

    fulfillmentEventCreate: ({
      fulfillmentEvent,
    }: {
      fulfillmentEvent: Parameters<typeof createFulfillmentEvent>[1];
    }) => {
      const result = createFulfillmentEvent(state, fulfillmentEvent);
      return result.ok
        ? { fulfillmentEvent: fulfillmentEventView(result.value), userErrors: [] }
        : { fulfillmentEvent: null, userErrors: result.userErrors };
    },
  };
}
