import { z } from 'zod';

/** Ids only: BullMQ keeps payloads in clear text, so the worker reloads the order itself. */
export const createShipmentPayload = z.object({
  orderId: z.string().regex(/^\d{1,20}$/, 'must be a numeric Shopify order id'),
  /** For the board and logs: webhook topic, reconciliation, backfill, replay. */
  source: z.string().max(64),
});

export const CREATE_SHIPMENT_QUEUE = 'create-shipment';

/** One job per order, however it arrives. */
export function orderJobId(orderId: string): string {
  return `order-${orderId}`;
}
