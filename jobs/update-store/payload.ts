import { z } from 'zod';

/**
 * What to write back on the order. The details (order number, reasons) are read from the order
 * record when the job runs, so the payload holds ids only and a replay writes the latest state.
 */
export const UPDATE_STORE_KINDS = [
  'registered',
  'failed',
  'cancelled_after_registration',
  'cancelled_after_failure',
] as const;
export type UpdateStoreKind = (typeof UPDATE_STORE_KINDS)[number];

export const updateStorePayload = z.object({
  orderId: z.string().regex(/^\d{1,20}$/, 'must be a numeric Shopify order id'),
  kind: z.enum(UPDATE_STORE_KINDS),
});

export type UpdateStorePayload = z.infer<typeof updateStorePayload>;
