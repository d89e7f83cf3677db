import { parseOrderId } from '../../domain/order.js';
import { StoreRequestError } from '../errors.js';
import type { StoreTransport } from '../transport/admin-transport.js';
import { nextCursor } from '../transport/answers.js';
import { orderGidOf } from '../transport/order-ids.js';
import { linesGone } from './open-fulfillment-orders.js';
import * as D from './state-documents.js';
import * as R from './state-responses.js';
import type { FulfillmentOrderState, FulfillmentState } from './types.js';

/** Null when the store has no such order (or it was deleted while being read). */
export async function readFulfillmentState(transport: StoreTransport, orderId: string) {
  const operation = 'ReadFulfillmentState';
  const id = orderGidOf(orderId, operation);
  const { order } = await transport.send(
    operation,
    D.READ_FULFILLMENT_STATE,
    R.readFulfillmentStateData,
    { id },
  );
  if (!order) return null;

  const fulfillmentOrderNodes = await allFulfillmentOrders(transport, id, order.fulfillmentOrders);
  const fulfillmentNodes = await allFulfillments(transport, id, order);
  if (!fulfillmentOrderNodes || !fulfillmentNodes) return null;

  const fulfillments: FulfillmentState[] = [];
  for (const node of fulfillmentNodes) {
    const { location, fulfillmentLineItems, trackingInfo: tracking, ...fields } = node;
    const lines = await allFulfillmentLines(transport, node);
    fulfillments.push({
      ...fields,
      locationId: location?.id ?? null,
      locationName: location?.name ?? null,
      atFulfillmentService: location?.isFulfillmentService ?? false,
      lineItems: lines.map((line) => ({
        lineItemId: line.lineItem.id,
        quantity: line.quantity ?? 0,
      })),
      tracking,
    });
  }
  const fulfillmentOrders: FulfillmentOrderState[] = [];
  for (const node of fulfillmentOrderNodes) {
    fulfillmentOrders.push({
      ...fulfillmentOrderHead(node),
      holdReasons: node.fulfillmentHolds.map((h) => h.displayReason),
      fulfillAt: node.fulfillAt,
      hasRemainingLines: await hasRemainingLines(transport, node),
    });
  }
  return {
    orderId: parseOrderId(order.id) ?? orderId,
    name: order.name,
    cancelledAt: order.cancelledAt,
    fulfillmentOrders,
    fulfillments,
  };
}

async function allFulfillmentOrders(
  transport: StoreTransport,
  id: string,
  firstPage: R.FulfillmentStateOrder['fulfillmentOrders'],
): Promise<R.FulfillmentOrderStateNode[] | null> {
  const operation = 'ReadOrderFulfillmentOrders';
  const nodes = [...firstPage.nodes];
  let after = nextCursor(firstPage.pageInfo, 'ReadFulfillmentState');
  while (after) {
    const { order } = await transport.send(
      operation,
      D.READ_ORDER_FULFILLMENT_ORDERS,
      R.readOrderFulfillmentOrdersData,
      { id, after },
    );
    if (!order) return null;
    nodes.push(...order.fulfillmentOrders.nodes);
    after = nextCursor(order.fulfillmentOrders.pageInfo, operation);
  }
  return nodes;
}

/**
 * Order.fulfillments has no cursor: page by creation time until fulfillmentsCount is reached. A
 * page with nothing new fails, as a partial list would make the sync fulfil again what it misses.
 */
async function allFulfillments(
  transport: StoreTransport,
  id: string,
  { name: orderName, fulfillments: firstRead, fulfillmentsCount }: R.FulfillmentStateOrder,
): Promise<R.FulfillmentStateNode[] | null> {
  const operation = 'ReadOrderFulfillments';
  // A first read short of READ_FULFILLMENT_STATE's `fulfillments(first: 10)` holds them all.
  const count = firstRead.length < 10 ? 0 : (fulfillmentsCount?.count ?? 0);
  const byId = new Map(firstRead.map((f) => [f.id, f]));
  let since = newestCreatedAt(firstRead);
  while (byId.size < count) {
    const { order } = await transport.send(
      operation,
      D.READ_ORDER_FULFILLMENTS,
      R.readOrderFulfillmentsData,
      { id, query: `created_at:>='${since}'` },
    );
    if (!order) return null;
    const before = byId.size;
    for (const fulfillment of order.fulfillments) byId.set(fulfillment.id, fulfillment);
    if (byId.size === before) {
      throw new StoreRequestError(
        `Order ${orderName} has ${count} fulfillments, but only ${before} could be read`,
        { operation },
      );
    }
    since = newestCreatedAt(order.fulfillments);
  }
  return [...byId.values()];
}

function newestCreatedAt(fulfillments: R.FulfillmentStateNode[]): string {
  let newest = '';
  for (const { createdAt } of fulfillments) {
    if (newest === '' || Date.parse(createdAt) > Date.parse(newest)) newest = createdAt;
  }
  return newest;
}

export function fulfillmentOrderHead(
  node: Pick<
    R.FulfillmentOrderStateNode,
    'id' | 'status' | 'supportedActions' | 'assignedLocation'
  >,
) {
  return {
    id: node.id,
    status: node.status,
    supportedActions: node.supportedActions.map((a) => a.action),
    location: {
      id: node.assignedLocation.location?.id ?? null,
      name: node.assignedLocation.name,
      isFulfillmentService: node.assignedLocation.location?.isFulfillmentService ?? false,
    },
  };
}

/** Reads further lines only while every line read so far is done, and stops at the first left. */
async function hasRemainingLines(transport: StoreTransport, node: R.FulfillmentOrderStateNode) {
  const operation = 'ReadFulfillmentOrderRemainingLines';
  let page = node.lineItems;
  for (;;) {
    if (page.nodes.some((line) => line.remainingQuantity > 0)) return true;
    const after = nextCursor(page.pageInfo, operation);
    if (!after) return false;
    const more = await transport.send(
      operation,
      D.READ_FULFILLMENT_ORDER_REMAINING_LINES,
      R.readRemainingLinesData,
      { id: node.id, after },
    );
    if (!more.fulfillmentOrder) throw linesGone(`Fulfillment order ${node.id}`, operation);
    page = more.fulfillmentOrder.lineItems;
  }
}

/** Reads every page: a sent line may be among the later ones. */
async function allFulfillmentLines(transport: StoreTransport, node: R.FulfillmentStateNode) {
  const operation = 'ReadFulfillmentLineItems';
  const lines = [...node.fulfillmentLineItems.nodes];
  let after = nextCursor(node.fulfillmentLineItems.pageInfo, 'ReadFulfillmentState');
  while (after) {
    const more = await transport.send(
      operation,
      D.READ_FULFILLMENT_LINE_ITEMS,
      R.readFulfillmentLineItemsData,
      { id: node.id, after },
    );
    if (!more.fulfillment) throw linesGone(`Fulfillment ${node.id}`, operation);
    lines.push(...more.fulfillment.fulfillmentLineItems.nodes);
    after = nextCursor(more.fulfillment.fulfillmentLineItems.pageInfo, operation);
  }
  return lines;
}
