import { z } from 'zod';
import { fulfillmentOrderLines } from '../fulfillments/responses.js';
import { fulfillmentOrderFields } from '../fulfillments/state-responses.js';
import { connection } from '../transport/answers.js';

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

const orderSummaryNodeSchema = orderHeaderSchema.extend({ requiresShipping: z.boolean() });

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

const lineItemsPageSchema = connection(lineItemNodeSchema);

/** The `OrderFulfillmentOrderFields` fragment (documents.ts) as Shopify answers it. */
const fulfillmentOrderNodeSchema = fulfillmentOrderFields.extend({
  deliveryMethod: z.object({ methodType: z.string() }).nullable(),
  lineItems: fulfillmentOrderLines,
});

const fulfillmentOrdersPageSchema = connection(fulfillmentOrderNodeSchema);

/** The `StoreOrderFields` fragment (documents.ts) as Shopify answers it. */
const orderNodeSchema = orderHeaderSchema.extend({
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

export type OrderHeaderNode = z.infer<typeof orderHeaderSchema>;
export type OrderSummaryNode = z.infer<typeof orderSummaryNodeSchema>;
export type FulfillmentOrderNode = z.infer<typeof fulfillmentOrderNodeSchema>;
export type LineItemNode = z.infer<typeof lineItemNodeSchema>;
export type OrderNode = z.infer<typeof orderNodeSchema>;

/** The `data` of each document in documents.ts, as far as the order reader reads it. */

export const getOrderData = z.object({ order: orderNodeSchema.nullable() });

export const getOrderLineItemsData = z.object({
  order: z.object({ updatedAt: z.string(), lineItems: lineItemsPageSchema }).nullable(),
});

export const getOrderFulfillmentOrdersData = z.object({
  order: z
    .object({ updatedAt: z.string(), fulfillmentOrders: fulfillmentOrdersPageSchema })
    .nullable(),
});

export const listOrdersData = z.object({ orders: connection(orderSummaryNodeSchema) });

export const findOrderByNameData = z.object({
  orders: z.object({ nodes: z.array(z.object({ id: z.string(), name: z.string() })) }),
});

/** A node that is not an order (or none at all) comes back null or without an id. */
export const findOrdersData = z.object({
  nodes: z.array(
    z.object({ id: z.string().optional(), createdAt: z.string().optional() }).nullable(),
  ),
});
