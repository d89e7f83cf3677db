import {
  parseOrderId,
  type StoreFulfillmentOrder,
  type StoreLineItem,
  type StoreOrder,
  type StoreOrderHeader,
  type StoreOrderSummary,
} from '../../domain/order.js';
import { fulfillmentOrderHead } from '../fulfillments/fulfillment-state.js';
import { toFulfillmentOrderLine } from '../fulfillments/open-fulfillment-orders.js';
import type { FulfillmentOrderLinesPage } from '../fulfillments/responses.js';
import type {
  FulfillmentOrderNode,
  LineItemNode,
  OrderHeaderNode,
  OrderNode,
  OrderSummaryNode,
} from './responses.js';

export function toStoreOrderSummary(node: OrderSummaryNode): StoreOrderSummary {
  return { ...toHeader(node), requiresShipping: node.requiresShipping };
}

/** The node and every page of its lines. */
export interface FulfillmentOrderRead {
  node: FulfillmentOrderNode;
  lines: readonly FulfillmentOrderLinesPage['nodes'][number][];
}

export function toStoreOrder(
  node: OrderNode,
  lineItems: readonly LineItemNode[],
  fulfillmentOrders: readonly FulfillmentOrderRead[],
): StoreOrder {
  return {
    ...toHeader(node),
    email: node.email,
    phone: node.phone,
    shipmentError: node.shipmentError !== null,
    shippingAddress: node.shippingAddress && toAddress(node.shippingAddress),
    lineItems: lineItems.map(toStoreLineItem),
    fulfillmentOrders: fulfillmentOrders.map(toStoreFulfillmentOrder),
  };
}

function toAddress({ countryCodeV2, ...address }: NonNullable<OrderNode['shippingAddress']>) {
  return { ...address, countryCode: countryCodeV2 };
}

function toStoreFulfillmentOrder({ node, lines }: FulfillmentOrderRead): StoreFulfillmentOrder {
  return {
    ...fulfillmentOrderHead(node),
    deliveryMethod: node.deliveryMethod?.methodType ?? null,
    holdReasons: node.fulfillmentHolds.map((h) => h.displayReason),
    fulfillAt: node.fulfillAt,
    lineItems: lines.map(toFulfillmentOrderLine),
  };
}

function toStoreLineItem(item: LineItemNode): StoreLineItem {
  const weight = item.variant?.inventoryItem.measurement.weight ?? null;
  return {
    id: item.id,
    title: item.title,
    quantity: item.currentQuantity,
    unfulfilledQuantity: item.unfulfilledQuantity,
    requiresShipping: item.requiresShipping,
    // An empty product type means "none set" in the admin.
    productType: item.product?.productType || null,
    // Shopify stores 0 when no weight was entered; treat it as unknown, not weightless.
    weight: weight && weight.value > 0 ? { value: weight.value, unit: weight.unit } : null,
  };
}

function toHeader(node: OrderHeaderNode): StoreOrderHeader {
  const id = parseOrderId(node.id);
  if (id === null) throw new TypeError(`Not an order id: ${node.id}`);
  return {
    id,
    name: node.name,
    createdAt: node.createdAt,
    updatedAt: node.updatedAt,
    test: node.test,
    cancelledAt: node.cancelledAt,
    financialStatus: node.displayFinancialStatus?.toLowerCase() ?? null,
    fulfillmentStatus: node.displayFulfillmentStatus?.toLowerCase() ?? null,
    tags: node.tags,
    shipmentOrderNumber: node.shipmentOrderNumber?.value ?? null,
  };
}
