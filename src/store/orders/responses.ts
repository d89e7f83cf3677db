import { z } from 'zod';
import { pageInfo } from '../transport/answers.js';
import {
  fulfillmentOrdersPageSchema,
  lineItemsPageSchema,
  orderNodeSchema,
  orderSummaryNodeSchema,
} from './order-mapper.js';

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

export const listOrdersData = z.object({
  orders: z.object({
    nodes: z.array(orderSummaryNodeSchema),
    pageInfo,
  }),
});

export const findOrderByNameData = z.object({
  orders: z.object({ nodes: z.array(z.object({ id: z.string(), name: z.string() })) }),
});

/** A node that is not an order (or none at all) comes back null or without an id. */
export const findOrdersData = z.object({
  nodes: z.array(
    z.object({ id: z.string().optional(), createdAt: z.string().optional() }).nullable(),
  ),
});
