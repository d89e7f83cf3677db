import type { z } from 'zod';
import { StoreRequestError } from '../errors.js';
import type { StoreTransport } from '../transport/admin-transport.js';
import { nextCursor } from '../transport/answers.js';
import { orderGidOf, orderNotFound } from '../transport/order-ids.js';
import * as D from './documents.js';
import * as R from './responses.js';
import type { FulfillmentOrderLine, OpenFulfillmentOrder } from './types.js';

const OPEN_FULFILLMENT_ORDER_STATUSES = new Set(['OPEN', 'IN_PROGRESS']);

/** Only lines with something left to fulfil; pages to keep each request cheap. */
export async function readOpenFulfillmentOrders(
  transport: StoreTransport,
  orderId: string,
): Promise<OpenFulfillmentOrder[]> {
  const operation = 'GetFulfillmentOrders';
  const id = orderGidOf(orderId, operation);
  const open: OpenFulfillmentOrder[] = [];
  let after: string | null = null;
  do {
    const data: z.output<typeof R.getFulfillmentOrdersData> = await transport.send(
      operation,
      D.GET_FULFILLMENT_ORDERS,
      R.getFulfillmentOrdersData,
      { id, after },
    );
    if (!data.order) throw orderNotFound(orderId, operation);
    const { nodes, pageInfo } = data.order.fulfillmentOrders;
    for (const fo of nodes) {
      if (!OPEN_FULFILLMENT_ORDER_STATUSES.has(fo.status)) continue;
      const lines = await allLines(transport, fo.id, fo.lineItems, operation);
      const remaining = lines.filter((line) => line.remainingQuantity > 0);
      if (remaining.length > 0) open.push({ id: fo.id, status: fo.status, lineItems: remaining });
    }
    after = nextCursor(pageInfo, operation);
  } while (after);
  return open;
}

async function allLines(
  transport: StoreTransport,
  fulfillmentOrderId: string,
  firstPage: R.FulfillmentOrderLinesPage,
  operation: string,
): Promise<FulfillmentOrderLine[]> {
  const linesOperation = 'GetFulfillmentOrderLineItems';
  const nodes = [...firstPage.nodes];
  let after = nextCursor(firstPage.pageInfo, operation);
  while (after) {
    const more = await transport.send(
      linesOperation,
      D.GET_FULFILLMENT_ORDER_LINE_ITEMS,
      R.getFulfillmentOrderLineItemsData,
      { id: fulfillmentOrderId, after },
    );
    // Gone between two requests (e.g. the order was edited): its lines cannot be trusted.
    if (!more.fulfillmentOrder) {
      throw new StoreRequestError(
        `Fulfillment order ${fulfillmentOrderId} disappeared while its lines were read`,
        { operation: linesOperation, retryable: true },
      );
    }
    nodes.push(...more.fulfillmentOrder.lineItems.nodes);
    after = nextCursor(more.fulfillmentOrder.lineItems.pageInfo, linesOperation);
  }
  return nodes.map((line) => ({
    id: line.id,
    lineItemId: line.lineItem.id,
    totalQuantity: line.totalQuantity,
    remainingQuantity: line.remainingQuantity,
  }));
}
