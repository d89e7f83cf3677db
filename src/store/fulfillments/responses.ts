import { z } from 'zod';
import { connection, payload } from '../transport/answers.js';

/** The `data` of each document in documents.ts, as far as the fulfillments read it. */

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
export const statusWrite = payload({});

export type CreatedFulfillment = z.output<typeof createdFulfillment>;

export const createFulfillmentData = z.object({
  fulfillmentCreate: payload({ fulfillment: createdFulfillment.nullable() }),
});

export const updateTrackingData = z.object({
  fulfillmentTrackingInfoUpdate: payload({ fulfillment: fulfillment.nullable() }),
});

export const createFulfillmentEventData = z.object({
  fulfillmentEventCreate: payload({
    fulfillmentEvent: z
      .object({ id: z.string(), status: z.string(), happenedAt: z.string() })
      .nullable(),
  }),
});

export const reportProgressData = z.object({
  fulfillmentOrderReportProgress: payload({
    fulfillmentOrder: z.object({ id: z.string(), status: z.string() }).nullable(),
  }),
});
