import { type FakeStore, startFakeStore } from '../../../src/sandbox/store/index.js';
import type { FakeOrderInput } from '../../../src/sandbox/store/model.js';

/**
 * Drives the fake store the way any Admin API client would: plain fetch, documents written in
 * the tests (never src/store's), and the /_fake control routes.
 */

export const ACCESS_TOKEN = 'shpat_fake_store_test';

export function startStore(orders: FakeOrderInput[] = [], extra: { accessScopes?: string[] } = {}) {
  return startFakeStore({
    shop: 'demo.myshopify.com',
    accessToken: ACCESS_TOKEN,
    webhookSecret: 'whsec_fake_store_test',
    orders,
    ...extra,
  });
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers.
export type Json = any;

/** POSTs a GraphQL document; answers the parsed body (throws on a non-JSON answer). */
export async function graphql(
  store: FakeStore,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<Json> {
  const response = await fetch(`${store.url}/admin/api/2026-10/graphql.json`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': ACCESS_TOKEN },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as Json;
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

/** A control route: POST (or PUT) with a JSON body, or GET without one. */
export async function control(
  store: FakeStore,
  path: string,
  body?: unknown,
  method = body === undefined ? 'GET' : 'POST',
): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${store.url}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

export const orderGid = (id: string) => `gid://shopify/Order/${id}`;

export const FULFILLMENT_ORDERS = /* GraphQL */ `
  query FulfillmentOrders($id: ID!) {
    order(id: $id) {
      displayFulfillmentStatus
      fulfillmentOrders(first: 10) {
        nodes {
          id
          status
          requestStatus
          fulfillAt
          assignedLocation { name location { id name isFulfillmentService } }
          supportedActions { action }
          fulfillmentHolds { id reason reasonNotes displayReason heldByRequestingApp }
          lineItems(first: 10) { nodes { id totalQuantity remainingQuantity lineItem { title } } }
        }
      }
    }
  }
`;

/** The order's fulfillment orders as the Admin API shows them. */
export async function fulfillmentOrders(store: FakeStore, orderId: string) {
  const data = await graphql(store, FULFILLMENT_ORDERS, { id: orderGid(orderId) });
  return {
    status: data.order.displayFulfillmentStatus as string,
    nodes: data.order.fulfillmentOrders.nodes as Json[],
  };
}

export const actionsOf = (fo: Json) => fo.supportedActions.map((a: Json) => a.action);

export const FULFILLMENT_CREATE = /* GraphQL */ `
  mutation FulfillmentCreate($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment { id status displayStatus location { name } }
      userErrors { field message }
    }
  }
`;

export function createFulfillment(
  store: FakeStore,
  fulfillmentOrderIds: string[],
  extra: Record<string, unknown> = {},
) {
  return graphql(store, FULFILLMENT_CREATE, {
    fulfillment: {
      lineItemsByFulfillmentOrder: fulfillmentOrderIds.map((fulfillmentOrderId) => ({
        fulfillmentOrderId,
      })),
      ...extra,
    },
  });
}
