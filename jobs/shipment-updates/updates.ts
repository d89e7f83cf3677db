import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * Apart from the jobs, so the sync and each job queue the next without importing one another.
 * `jobId`: what the update's job ids start with.
 */
export const SHIPMENT_UPDATES = {
  status: { queue: 'write-shipment-status', jobId: 'shipment-status' },
  progress: { queue: 'report-shipment-progress', jobId: 'shipment-progress' },
  fulfil: { queue: 'fulfil-shipment', jobId: 'fulfil' },
  delivery: { queue: 'record-delivery', jobId: 'delivery' },
  cancelled: { queue: 'flag-cancelled-shipment', jobId: 'shipment-cancelled' },
} as const;

export type ShipmentUpdate = keyof typeof SHIPMENT_UPDATES;

/** `version`: the value a once-per-value write is for (status instant, tracking-number digest). */
export const shipmentUpdatePayload = z.object({
  reference: z.string().regex(/^\d{1,20}$/, 'must be a numeric Shopify order id'),
  version: z
    .string()
    .regex(/^[0-9a-f]{1,32}$/, 'must be a number or a digest')
    .optional(),
});
export type ShipmentUpdatePayload = z.infer<typeof shipmentUpdatePayload>;

/** One job per shipment and value, so a write queued twice runs once. */
export function updateJobId(update: ShipmentUpdate, payload: ShipmentUpdatePayload): string {
  const base = `${SHIPMENT_UPDATES[update].jobId}-${payload.reference}`;
  return payload.version ? `${base}-${payload.version}` : base;
}

/** BullMQ ids may not hold ':', and numbers are the carrier's to spell: the id holds a digest. */
export function numberKey(trackingNumber: string): string {
  return createHash('sha256').update(trackingNumber).digest('hex').slice(0, 16);
}
