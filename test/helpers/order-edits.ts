import nock from 'nock';
import { orderGid } from '../../src/domain/order.js';
import type { FakeStore } from '../../src/sandbox/store/index.js';
import { GET_ORDER } from '../../src/store/orders/documents.js';

/** An order as Admin GraphQL's GetOrder answers it (src/store/orders/documents.ts). */
export interface OrderNode {
  shippingAddress: { zip: string | null; address1: string | null } & Record<string, unknown>;
  lineItems: {
    nodes: ({
      id: string;
      currentQuantity: number;
      unfulfilledQuantity: number;
      variant: { inventoryItem: { measurement: { weight: { unit: string; value: number } } } };
    } & Record<string, unknown>)[];
  };
  fulfillmentOrders: {
    nodes: {
      lineItems: {
        nodes: { totalQuantity: number; remainingQuantity: number; lineItem: { id: string } }[];
      };
    }[];
  };
}

/**
 * Adds (or, negative, removes) units of the order's `index`th line as an order edit does: on the
 * line item and on the fulfillment order line that holds it.
 */
export function changeQuantity(order: OrderNode, index: number, delta: number): void {
  const item = order.lineItems.nodes[index]!;
  item.currentQuantity += delta;
  item.unfulfilledQuantity += delta;
  for (const fo of order.fulfillmentOrders.nodes) {
    const line = fo.lineItems.nodes.find((l) => l.lineItem.id === item.id);
    if (line) {
      line.totalQuantity += delta;
      line.remainingQuantity += delta;
      return;
    }
  }
}

/**
 * Staff edit an order in Shopify after it was sent: the fake store can change tags, notes and
 * payment but not an order's address or lines, so its GetOrder answer for this order is taken as
 * it stands, edited, and served at the network edge from then on (the store client still parses
 * the real answer shape). Every other request, the marks included, reaches the fake store.
 */
export async function editOrderInShopify(
  store: FakeStore,
  accessToken: string,
  orderId: string,
  edit: (order: OrderNode) => void,
): Promise<nock.Scope> {
  const id = orderGid(orderId);
  const response = await fetch(`${store.url}/admin/api/2026-10/graphql.json`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': accessToken },
    body: JSON.stringify({ query: GET_ORDER, variables: { id } }),
  });
  const answer = (await response.json()) as { data: { order: OrderNode } };
  edit(answer.data.order);
  return nock(store.url, { allowUnmocked: true })
    .persist()
    .post(
      /\/graphql\.json$/,
      (body: { query?: string; variables?: { id?: string } }) =>
        /query GetOrder\b/.test(body.query ?? '') && body.variables?.id === id,
    )
    .reply(200, answer);
}
