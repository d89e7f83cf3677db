import { StoreRequestError } from '../errors.js';
import type { StoreTransport } from '../transport/admin-transport.js';
import { nextCursor } from '../transport/answers.js';
import { orderGidOf, orderNotFound } from '../transport/order-ids.js';
import * as D from './documents.js';
import * as R from './responses.js';
import type { OpenFulfillmentOrder } from './types.js';

/** Only lines with something left to fulfil; pages to keep each request cheap. */
export async function readOpenFulfillmentOrders(transport: StoreTransport, orderId: string) {
  const operation = 'GetFulfillmentOrders';
  const id = orderGidOf(orderId, operation);
  const open: OpenFulfillmentOrder[] = [];
  let after: string | null = null;
  do {
    const data = await transport.send(
      operation,
      D.GET_FULFILLMENT_ORDERS,
      R.getFulfillmentOrdersData,
      { id, after },
    );
    if (!data.order) throw orderNotFound(orderId, operation);
    const { nodes, pageInfo } = data.order.fulfillmentOrders;
    for (const fo of nodes) {
      if (fo.status !== 'OPEN' && fo.status !== 'IN_PROGRESS') continue;
      const lines = await allFulfillmentOrderLines(transport, fo, operation);
      const remaining = lines.map(toFulfillmentOrderLine).filter((l) => l.remainingQuantity > 0);
      if (remaining.length > 0) open.push({ id: fo.id, status: fo.status, lineItems: remaining });
    }
    after = nextCursor(pageInfo, operation);
  } while (after);
  return open;
}

/**
 * Every line of a fulfillment order, from the first page its own read holds. For a whole order
 * (`maxLines`), one with too many lines is refused, and one gone meanwhile has the order read again.
 */
export async function allFulfillmentOrderLines(
  transport: StoreTransport,
  fo: { id: string; lineItems: R.FulfillmentOrderLinesPage },
  firstOperation: string,
  maxLines?: number,
): Promise<R.FulfillmentOrderLinesPage['nodes']> {
  const operation = 'GetFulfillmentOrderLineItems';
  const lines = [...fo.lineItems.nodes];
  let after = nextCursor(fo.lineItems.pageInfo, firstOperation);
  while (after) {
    if (maxLines !== undefined && lines.length >= maxLines) {
      throw new StoreRequestError(
        `A fulfillment order has more than ${maxLines} lines, more than the connector reads; register its shipment by hand.`,
        { operation: 'GetOrder' },
      );
    }
    const more = await transport.send(
      operation,
      D.GET_FULFILLMENT_ORDER_LINE_ITEMS,
      R.getFulfillmentOrderLineItemsData,
      { id: fo.id, after },
    );
    if (!more.fulfillmentOrder) {
      const then = maxLines === undefined ? '' : '; the order is read again';
      throw linesGone(`Fulfillment order ${fo.id}`, operation, then);
    }
    lines.push(...more.fulfillmentOrder.lineItems.nodes);
    after = nextCursor(more.fulfillmentOrder.lineItems.pageInfo, operation);
  }
  return lines;
}

/** Gone between two requests (e.g. the order was edited): its lines cannot be trusted. */
export function linesGone(what: string, operation: string, then = '') {
  return new StoreRequestError(`${what} disappeared while its lines were read${then}`, {
    operation,
    retryable: true,
  });
}

export function toFulfillmentOrderLine(line: R.FulfillmentOrderLinesPage['nodes'][number]) {
  return {
    id: line.id,
    lineItemId: line.lineItem.id,
    totalQuantity: line.totalQuantity,
    remainingQuantity: line.remainingQuantity,
  };
}
