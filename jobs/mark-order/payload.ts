import { z } from 'zod';
import type { OrderMarksSeen } from '../../src/domain/order-marks.js';

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

/**
 * The connector's marks on the order as the job that queued this one saw them (see
 * OrderMarksSeen): its own tags, the provider's order number, whether a reason is there. No
 * personal data. Used on the job's first run only (dropped when it gives up), so a retry or a
 * replay reads the order afresh.
 */
export const marksSeen = z.object({
  tags: z.array(z.string().max(64)).max(20),
  orderNumber: z.string().max(255).nullable(),
  error: z.boolean(),
});

export const markOrderPayload = z.object({
  orderId: z.string().regex(/^\d{1,20}$/, 'must be a numeric Shopify order id'),
  kind: z.enum(MARK_ORDER_KINDS),
  seen: marksSeen.optional(),
});

export type MarkOrderPayload = z.infer<typeof markOrderPayload>;

/**
 * Queues a mark on the order; what use cases are given instead of the queue itself. `seen`: the
 * marks on the order as just loaded, so the mark job writes only what differs without reading
 * the order again.
 */
export type MarkOrder = (
  orderId: string,
  kind: MarkOrderKind,
  seen?: OrderMarksSeen,
) => Promise<void>;
