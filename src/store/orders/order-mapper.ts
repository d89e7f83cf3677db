import { z } from 'zod';
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
import {
  type FulfillmentOrderLinesPage,
  fulfillmentOrderLines,
} from '../fulfillments/responses.js';
import { fulfillmentOrderFields } from '../fulfillments/state-responses.js';
import { pageInfo } from '../transport/answers.js';

/** The `OrderHeaderFields` fragment (documents.ts) as Shopify answers it. */
const orderHeaderSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  test: z.boolean(),
  cancelledAt: z.string().nullable(),
  displayFinancialStatus: z.string().nullable(),
  displayFulfillmentStatus: z.string().nullable(),
  tags: z.array(z.string()),
  shipmentOrderNumber: z.object({ value: z.string() }).nullable(),
});

export const orderSummaryNodeSchema = orderHeaderSchema.extend({ requiresShipping: z.boolean() });

/** The `LineItemFields` fragment (documents.ts) as Shopify answers it. */
const lineItemNodeSchema = z.object({
  id: z.string(),
  title: z.string(),
  currentQuantity: z.number().int(),
  unfulfilledQuantity: z.number().int(),
  requiresShipping: z.boolean(),
  product: z.object({ productType: z.string().nullable() }).nullable(),
  variant: z
    .object({
      inventoryItem: z.object({
        measurement: z.object({
          weight: z
            .object({
              unit: z.enum(['GRAMS', 'KILOGRAMS', 'OUNCES', 'POUNDS']),
              value: z.number(),
            })
            .nullable(),
        }),
      }),
    })
    .nullable(),
});

export const lineItemsPageSchema = z.object({
  nodes: z.array(lineItemNodeSchema),
  pageInfo,
});

/** The `OrderFulfillmentOrderFields` fragment (documents.ts) as Shopify answers it. */
const fulfillmentOrderNodeSchema = fulfillmentOrderFields.extend({
  deliveryMethod: z.object({ methodType: z.string() }).nullable(),
  lineItems: fulfillmentOrderLines,
});

export const fulfillmentOrdersPageSchema = z.object({
  nodes: z.array(fulfillmentOrderNodeSchema),
  pageInfo,
});

/** The `StoreOrderFields` fragment (documents.ts) as Shopify answers it. */
export const orderNodeSchema = orderHeaderSchema.extend({
  email: z.string().nullable(),
  phone: z.string().nullable(),
  shipmentError: z.object({ id: z.string() }).nullable(),
  shippingAddress: z
    .object({
      name: z.string().nullable(),
      company: z.string().nullable(),
      phone: z.string().nullable(),
      address1: z.string().nullable(),
      address2: z.string().nullable(),
      city: z.string().nullable(),
      zip: z.string().nullable(),
      countryCodeV2: z.string().nullable(),
    })
    .nullable(),
  lineItems: lineItemsPageSchema,
  fulfillmentOrders: fulfillmentOrdersPageSchema,
});

export type FulfillmentOrderNode = z.infer<typeof fulfillmentOrderNodeSchema>;
type LineItemNode = z.infer<typeof lineItemNodeSchema>;
export type OrderNode = z.infer<typeof orderNodeSchema>;

export function toStoreOrderSummary(
  node: z.infer<typeof orderSummaryNodeSchema>,
): StoreOrderSummary {
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
  const { id, status, supportedActions, location } = fulfillmentOrderHead(node);
  return {
    id,
    status,
    location,
    deliveryMethod: node.deliveryMethod?.methodType ?? null,
    supportedActions,
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

function toHeader(node: z.infer<typeof orderHeaderSchema>): StoreOrderHeader {
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
