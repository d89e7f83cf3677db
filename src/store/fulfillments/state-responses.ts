import { z } from 'zod';
import { connection } from '../transport/answers.js';
import { trackingInfo } from './responses.js';

/** The `data` of each document in state-documents.ts, as readFulfillmentState reads it. */

const remainingLines = connection(z.object({ remainingQuantity: z.number().int() }));

/** A fulfillment order's own fields, as every document that reads fulfillment orders asks them. */
export const fulfillmentOrderFields = z.object({
  id: z.string(),
  status: z.string(),
  fulfillAt: z.string().nullable(),
  supportedActions: z.array(z.object({ action: z.string() })),
  assignedLocation: z.object({
    name: z.string(),
    // Null when the location was deleted after the fulfillment order was assigned to it.
    location: z.object({ id: z.string(), isFulfillmentService: z.boolean() }).nullable(),
  }),
  fulfillmentHolds: z.array(z.object({ displayReason: z.string() })),
});

const fulfillmentOrderState = fulfillmentOrderFields.extend({ lineItems: remainingLines });

export type FulfillmentOrderStateNode = z.output<typeof fulfillmentOrderState>;

const fulfillmentOrders = connection(fulfillmentOrderState);

const fulfillmentLines = connection(
  z.object({ quantity: z.number().int().nullable(), lineItem: z.object({ id: z.string() }) }),
);

const fulfillmentState = z.object({
  id: z.string(),
  status: z.string(),
  displayStatus: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  location: z
    .object({ id: z.string(), name: z.string(), isFulfillmentService: z.boolean() })
    .nullable(),
  fulfillmentLineItems: fulfillmentLines,
  trackingInfo,
});

export type FulfillmentStateNode = z.output<typeof fulfillmentState>;

export const readFulfillmentStateData = z.object({
  order: z
    .object({
      id: z.string(),
      name: z.string(),
      cancelledAt: z.string().nullable(),
      fulfillmentOrders,
      fulfillmentsCount: z.object({ count: z.number().int() }).nullable(),
      fulfillments: z.array(fulfillmentState),
    })
    .nullable(),
});

export type FulfillmentStateOrder = NonNullable<z.output<typeof readFulfillmentStateData>['order']>;

export const readOrderFulfillmentOrdersData = z.object({
  order: z.object({ id: z.string(), fulfillmentOrders }).nullable(),
});

export const readOrderFulfillmentsData = z.object({
  order: z.object({ id: z.string(), fulfillments: z.array(fulfillmentState) }).nullable(),
});

export const readRemainingLinesData = z.object({
  fulfillmentOrder: z.object({ id: z.string(), lineItems: remainingLines }).nullable(),
});

export const readFulfillmentLineItemsData = z.object({
  fulfillment: z.object({ id: z.string(), fulfillmentLineItems: fulfillmentLines }).nullable(),
});

export const readFulfillmentOrdersByIdData = z.object({
  nodes: z.array(
    fulfillmentOrderFields
      .pick({ id: true, status: true, supportedActions: true, assignedLocation: true })
      // Another type's node (an id of something else) answers an empty object.
      .or(
        z
          .object({})
          .strict()
          .transform(() => null),
      )
      .nullable(),
  ),
});
