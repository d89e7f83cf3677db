import { z } from 'zod';
import { orderNodeSchema, orderSummaryNodeSchema } from './order-mapper.js';

/** The `data` of each document in queries.ts, as far as the client reads it. */

/** pageInfo of a connection the client pages through. */
const pageInfo = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });

const userErrors = z.array(
  z.object({
    field: z.array(z.string()).nullable().optional(),
    message: z.string(),
    code: z.string().nullable().optional(),
  }),
);

export const getOrderData = z.object({ order: orderNodeSchema.nullable() });

export const listOrdersData = z.object({
  orders: z.object({
    nodes: z.array(orderSummaryNodeSchema),
    pageInfo,
  }),
});

export const setMetafieldsData = z.object({
  metafieldsSet: z.object({ userErrors }).nullable(),
});

/** An entry per identifier sent; null where Shopify found no such metafield (not an error). */
export const deleteMetafieldsData = z.object({
  metafieldsDelete: z
    .object({
      deletedMetafields: z
        .array(z.object({ ownerId: z.string(), namespace: z.string(), key: z.string() }).nullable())
        .nullable(),
      userErrors,
    })
    .nullable(),
});

export const addTagsData = z.object({ tagsAdd: z.object({ userErrors }).nullable() });
export const removeTagsData = z.object({ tagsRemove: z.object({ userErrors }).nullable() });

export const getOrderNoteData = z.object({
  order: z.object({ id: z.string(), note: z.string().nullable() }).nullable(),
});

export const updateOrderNoteData = z.object({ orderUpdate: z.object({ userErrors }).nullable() });

const fulfillmentOrderLines = z.object({
  nodes: z.array(
    z.object({
      id: z.string(),
      totalQuantity: z.number().int(),
      remainingQuantity: z.number().int(),
      lineItem: z.object({ id: z.string() }),
    }),
  ),
  pageInfo,
});

/** One page of a fulfillment order's lines, as both fulfillment documents answer it. */
export type FulfillmentOrderLinesPage = z.output<typeof fulfillmentOrderLines>;

export const getFulfillmentOrdersData = z.object({
  order: z
    .object({
      id: z.string(),
      fulfillmentOrders: z.object({
        nodes: z.array(
          z.object({ id: z.string(), status: z.string(), lineItems: fulfillmentOrderLines }),
        ),
        pageInfo,
      }),
    })
    .nullable(),
});

export const getFulfillmentOrderLineItemsData = z.object({
  fulfillmentOrder: z.object({ id: z.string(), lineItems: fulfillmentOrderLines }).nullable(),
});

const fulfillment = z.object({
  id: z.string(),
  status: z.string(),
  trackingInfo: z.array(
    z.object({
      company: z.string().nullable(),
      number: z.string().nullable(),
      url: z.string().nullable(),
    }),
  ),
});

export const createFulfillmentData = z.object({
  fulfillmentCreate: z.object({ fulfillment: fulfillment.nullable(), userErrors }).nullable(),
});

export const updateTrackingData = z.object({
  fulfillmentTrackingInfoUpdate: z
    .object({ fulfillment: fulfillment.nullable(), userErrors })
    .nullable(),
});

export const createFulfillmentEventData = z.object({
  fulfillmentEventCreate: z
    .object({
      fulfillmentEvent: z
        .object({ id: z.string(), status: z.string(), happenedAt: z.string() })
        .nullable(),
      userErrors,
    })
    .nullable(),
});
