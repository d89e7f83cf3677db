import { parseOrderId } from '../../domain/order.js';
import { StoreRequestError } from '../errors.js';
import { allFulfillmentOrderLines } from '../fulfillments/open-fulfillment-orders.js';
import type { StoreTransport } from '../transport/admin-transport.js';
import { nextCursor } from '../transport/answers.js';
import { orderGidOf } from '../transport/order-ids.js';
import * as D from './documents.js';
import { type FulfillmentOrderRead, toStoreOrder, toStoreOrderSummary } from './order-mapper.js';
import * as R from './responses.js';
import type { OrderReader } from './types.js';

export const ORDERS_PAGE_SIZE = 100;
/** An order with more is refused with a clear error rather than read without end. */
export const MAX_ORDER_LINE_ITEMS = 500;
const FIND_ORDERS_BATCH = 100;

export function createOrderReader(transport: StoreTransport): OrderReader {
  return {
    async getOrder(id) {
      const gid = orderGidOf(id, 'GetOrder');
      const data = await transport.send('GetOrder', D.GET_ORDER, R.getOrderData, { id: gid });
      return data.order ? wholeOrder(transport, gid, data.order) : null;
    },

    async listOrdersUpdatedSince(since, after) {
      const operation = 'ListOrdersUpdatedSince';
      // Whole seconds, rounded down: the window may only grow, never skip an update.
      const timestamp = since.toISOString().replace(/\.\d{3}Z$/, 'Z');
      const data = await transport.send(operation, D.LIST_ORDERS_UPDATED_SINCE, R.listOrdersData, {
        first: ORDERS_PAGE_SIZE,
        after: after ?? null,
        query: `updated_at:>='${timestamp}'`,
      });
      const { nodes, pageInfo } = data.orders;
      return {
        orders: nodes.map(toStoreOrderSummary),
        nextCursor: nextCursor(pageInfo, operation),
      };
    },

    async findOrderByName(rawName) {
      // `1003` and `#1003` both name order #1003.
      const name = `#${rawName.trim().replace(/^#/, '')}`;
      const data = await transport.send(
        'FindOrderByName',
        D.FIND_ORDER_BY_NAME,
        R.findOrderByNameData,
        // Quoted: a name is one value, whatever it holds (Shopify's search syntax).
        { query: `name:"${name.replaceAll('"', '\\"')}"` },
      );
      const node = data.orders.nodes[0];
      const id = node ? parseOrderId(node.id) : null;
      // Shopify's search may match more loosely than the name asked for.
      if (!node || !id || node.name.toLowerCase() !== name.toLowerCase()) return null;
      return { id, name: node.name };
    },

    async findOrders(ids) {
      const found = new Map<string, { createdAt: string }>();
      for (let i = 0; i < ids.length; i += FIND_ORDERS_BATCH) {
        const data = await transport.send('FindOrders', D.FIND_ORDERS, R.findOrdersData, {
          ids: ids.slice(i, i + FIND_ORDERS_BATCH).map((id) => orderGidOf(id, 'FindOrders')),
        });
        for (const node of data.nodes) {
          const id = node?.id ? parseOrderId(node.id) : null;
          if (id && node?.createdAt) found.set(id, { createdAt: node.createdAt });
        }
      }
      return found;
    },
  };
}

/**
 * A shipment cannot be amended once registered, so a partial order is worse than none: one that
 * changes between pages is read again by the job's retry, and one with too many items is refused.
 */
async function wholeOrder(transport: StoreTransport, gid: string, node: R.OrderNode) {
  const operation = 'GetOrderLineItems';
  const changed = (updatedAt: string, what: string) => {
    if (updatedAt !== node.updatedAt) {
      throw new StoreRequestError(
        `Order ${node.name} changed while its ${what} were read; it is read again`,
        { operation, retryable: true },
      );
    }
  };
  const items = [...node.lineItems.nodes];
  let page = node.lineItems.pageInfo;
  while (page.hasNextPage) {
    if (items.length >= MAX_ORDER_LINE_ITEMS) {
      throw new StoreRequestError(
        `Order ${node.name} has more than ${MAX_ORDER_LINE_ITEMS} line items, more than the connector reads; register its shipment by hand.`,
        { operation: 'GetOrder' },
      );
    }
    const data = await transport.send(operation, D.GET_ORDER_LINE_ITEMS, R.getOrderLineItemsData, {
      id: gid,
      after: nextCursor(page, operation),
    });
    // Deleted while being read: as if it had not been found.
    if (!data.order) return null;
    changed(data.order.updatedAt, 'line items');
    items.push(...data.order.lineItems.nodes);
    page = data.order.lineItems.pageInfo;
  }

  const fulfillmentOrders = [...node.fulfillmentOrders.nodes];
  let foPage = node.fulfillmentOrders.pageInfo;
  while (foPage.hasNextPage) {
    const foOperation = 'GetOrderFulfillmentOrders';
    const data = await transport.send(
      foOperation,
      D.GET_ORDER_FULFILLMENT_ORDERS,
      R.getOrderFulfillmentOrdersData,
      { id: gid, after: nextCursor(foPage, foOperation) },
    );
    if (!data.order) return null;
    changed(data.order.updatedAt, 'fulfillment orders');
    fulfillmentOrders.push(...data.order.fulfillmentOrders.nodes);
    foPage = data.order.fulfillmentOrders.pageInfo;
  }
  const read: FulfillmentOrderRead[] = [];
  for (const fo of fulfillmentOrders) {
    const lines = await allFulfillmentOrderLines(
      transport,
      fo,
      'GetFulfillmentOrderLineItems',
      MAX_ORDER_LINE_ITEMS,
    );
    read.push({ node: fo, lines });
  }
  return toStoreOrder(node, items, read);
}
