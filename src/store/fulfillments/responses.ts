import { z } from 'zod';
import { pageInfo, userErrors } from '../transport/answers.js';

/** The `data` of each document in documents.ts, as far as the fulfillments read it. */

/** One page of a connection: its `nodes` and PAGE_INFO. */
export function connection<T extends z.ZodType>(node: T) {
  return z.object({ nodes: z.array(node), pageInfo });
}

export const fulfillmentOrderLines = connection(
  z.object({
    id: z.string(),
    totalQuantity: z.number().int(),
    remainingQuantity: z.number().int(),
    lineItem: z.object({ id: z.string() }),
  }),
);

/** One page of a fulfillment order's lines, as both fulfillment order documents answer it. */
export type FulfillmentOrderLinesPage = z.output<typeof fulfillmentOrderLines>;

export const getFulfillmentOrdersData = z.object({
  order: z
    .object({
      id: z.string(),
      fulfillmentOrders: connection(
        z.object({ id: z.string(), status: z.string(), lineItems: fulfillmentOrderLines }),
      ),
    })
    .nullable(),
});

export const getFulfillmentOrderLineItemsData = z.object({
  fulfillmentOrder: z.object({ id: z.string(), lineItems: fulfillmentOrderLines }).nullable(),
});

export const trackingInfo = z.array(
  z.object({
    company: z.string().nullable(),
    number: z.string().nullable(),
    url: z.string().nullable(),
  }),
);

const fulfillment = z.object({ id: z.string(), status: z.string(), trackingInfo });

export type Fulfillment = z.output<typeof fulfillment>;

const createdFulfillment = fulfillment.extend({
  fulfillmentLineItems: z.object({
    nodes: z.array(
      z.object({ quantity: z.number().int(), lineItem: z.object({ id: z.string() }) }),
    ),
    pageInfo: z.object({ hasNextPage: z.boolean() }),
  }),
});

/** The orderUpdate half of a `…WithStatus` write, which a plain one lacks. */
export const statusWrite = z.object({ userErrors }).nullable();

export type CreatedFulfillment = z.output<typeof createdFulfillment>;

export const createFulfillmentData = z.object({
  fulfillmentCreate: z
    .object({ fulfillment: createdFulfillment.nullable(), userErrors })
    .nullable(),
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

export const reportProgressData = z.object({
  fulfillmentOrderReportProgress: z
    .object({
      fulfillmentOrder: z.object({ id: z.string(), status: z.string() }).nullable(),
      userErrors,
    })
    .nullable(),
});
