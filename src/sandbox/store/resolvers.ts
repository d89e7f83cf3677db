import {
  createMetafieldDefinition,
  createWebhookSubscription,
  type MetafieldDefinitionInput,
  updateWebhookSubscription,
  type WebhookSubscriptionInput,
} from './app-setup.js';
import { indexConnection, type OrdersArgs, orderPage, type PageArgs } from './connections.js';
import { reportProgress } from './fulfillment-orders.js';
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
import { requireScope, seesFulfillmentOrdersAt } from './scopes.js';
import type { FakeStoreState } from './state.js';
import {
  fulfillmentEventView,
  fulfillmentOrderView,
  fulfillmentView,
  locationView,
  metafieldDefinitionView,
  metafieldView,
  orderView as orderViewOf,
  webhookSubscriptionView,
} from './views.js';

/**
 * Root resolvers for the fake schema: one per query or mutation root field the connector uses,
 * each behind the access scopes Shopify requires for it.
 */
export function createRootValue(state: FakeStoreState, shop: { name: string; domain: string }) {
  const resolvers = rootResolvers(state, shop);
  return Object.fromEntries(
    Object.entries(resolvers).map(([field, resolve]) => [
      field,
      (args: never) => {
        requireScope(state.app.accessScopes, field);
        return (resolve as (a: never) => unknown)(args);
      },
    ]),
  );
}

function rootResolvers(state: FakeStoreState, shop: { name: string; domain: string }) {
  const orderView = (order: Parameters<typeof orderViewOf>[1]) => orderViewOf(state, order);
  /** A fulfillment order, when the app's scopes show the ones at its location. */
  const visibleFulfillmentOrder = (id: string) => {
    const found = state.findFulfillmentOrder(id);
    const visible =
      found &&
      seesFulfillmentOrdersAt(
        state.app.accessScopes,
        state.locationById(found.fulfillmentOrder.locationId),
      );
    return visible ? fulfillmentOrderView(state, found.order, found.fulfillmentOrder) : null;
  };
  return {
    order: ({ id }: { id: string }) => {
      const order = state.findOrder(id);
      return order ? orderView(order) : null;
    },

    // Orders and fulfillment orders are served as nodes; any other id answers null, as an
    // unknown id does.
    nodes: ({ ids }: { ids: string[] }) =>
      ids.map((id) => {
        if (id.startsWith('gid://shopify/FulfillmentOrder/')) return visibleFulfillmentOrder(id);
        const order = id.startsWith('gid://shopify/Order/') ? state.findOrder(id) : undefined;
        return order ? orderView(order) : null;
      }),

    fulfillmentOrder: ({ id }: { id: string }) => visibleFulfillmentOrder(id),

    fulfillment: ({ id }: { id: string }) => {
      const found = state.findFulfillment(id);
      return found ? fulfillmentView(state, found.order, found.fulfillment) : null;
    },

    currentAppInstallation: () => ({
      id: gid('AppInstallation', '1'),
      accessScopes: state.app.accessScopes.map((handle) => ({ handle, description: handle })),
    }),

    shop: () => ({ id: gid('Shop', '1'), name: shop.name, myshopifyDomain: shop.domain }),

    // Every location is active here.
    locations: (args: PageArgs) => indexConnection(state.locations.map(locationView), args),

    webhookSubscriptions: (
      args: PageArgs & { topics?: string[] | null; uri?: string | null; format?: string | null },
    ) =>
      indexConnection(
        state.app.webhookSubscriptions
          .filter((s) => !args.topics || args.topics.includes(s.topic))
          .filter((s) => args.uri == null || s.uri === args.uri)
          .filter((s) => args.format == null || s.format === args.format)
          .map(webhookSubscriptionView),
        args,
      ),

    metafieldDefinitions: (
      args: PageArgs & { ownerType: string; namespace?: string | null; key?: string | null },
    ) =>
      indexConnection(
        state.app.metafieldDefinitions
          .filter((d) => d.ownerType === args.ownerType)
          .filter((d) => args.namespace == null || d.namespace === args.namespace)
          .filter((d) => args.key == null || d.key === args.key)
          .map(metafieldDefinitionView),
        args,
      ),

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

    orderUpdate: ({ input }: { input: Parameters<typeof updateOrder>[1] }) => {
      const result = updateOrder(state, input);
      return result.ok
        ? { order: orderView(result.value), userErrors: [] }
        : { order: null, userErrors: result.userErrors };
    },

    fulfillmentCreate: ({ fulfillment }: { fulfillment: FulfillmentInput }) => {
      const result = createFulfillment(state, fulfillment);
      return result.ok
        ? {
            fulfillment: fulfillmentView(state, result.value.order, result.value.fulfillment),
            userErrors: [],
          }
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
        ? {
            fulfillment: fulfillmentView(state, result.value.order, result.value.fulfillment),
            userErrors: [],
          }
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

    fulfillmentOrderReportProgress: (args: {
      id: string;
      progressReport?: { reasonNotes?: string | null } | null;
    }) => {
      const result = reportProgress(state, args.id, args.progressReport?.reasonNotes ?? null);
      if (!result.ok) return { fulfillmentOrder: null, userErrors: result.userErrors };
      const found = state.findFulfillmentOrder(args.id)!;
      return {
        fulfillmentOrder: fulfillmentOrderView(state, found.order, result.value),
        userErrors: [],
      };
    },

    webhookSubscriptionCreate: (args: {
      topic: string;
      webhookSubscription: WebhookSubscriptionInput;
    }) => {
      const result = createWebhookSubscription(state, args.topic, args.webhookSubscription);
      return result.ok
        ? { webhookSubscription: webhookSubscriptionView(result.value), userErrors: [] }
        : { webhookSubscription: null, userErrors: result.userErrors };
    },

    webhookSubscriptionUpdate: (args: {
      id: string;
      webhookSubscription: WebhookSubscriptionInput;
    }) => {
      const result = updateWebhookSubscription(state, args.id, args.webhookSubscription);
      return result.ok
        ? { webhookSubscription: webhookSubscriptionView(result.value), userErrors: [] }
        : { webhookSubscription: null, userErrors: result.userErrors };
    },

    metafieldDefinitionCreate: ({ definition }: { definition: MetafieldDefinitionInput }) => {
      const result = createMetafieldDefinition(state, definition);
      return result.ok
        ? { createdDefinition: metafieldDefinitionView(result.value), userErrors: [] }
        : { createdDefinition: null, userErrors: result.userErrors };
    },
  };
}
