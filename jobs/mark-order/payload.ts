import { z } from 'zod';

/**
 * What to mark on the Shopify order (metafields, tags, note). The details (order number, reasons)
 * are read from the order record when the job runs, so the payload holds ids only and a replay
 * writes the latest state.
 */
export const MARK_ORDER_KINDS = [
  'registered',
  'failed',
  'cancelled_after_registration',
  'cancelled_after_failure',
  'order_edited',
] as const;
export type MarkOrderKind = (typeof MARK_ORDER_KINDS)[number];

export const markOrderPayload = z.object({
  orderId: z.string().regex(/^\d{1,20}$/, 'must be a numeric Shopify order id'),
  kind: z.enum(MARK_ORDER_KINDS),
});

export type MarkOrderPayload = z.infer<typeof markOrderPayload>;

/** Queues a mark on the order; what use cases are given instead of the queue itself. */
export type MarkOrder = (orderId: string, kind: MarkOrderKind) => Promise<void>;
