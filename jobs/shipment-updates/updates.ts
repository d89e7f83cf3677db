import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * The writes that bring a Shopify order in line with its shipment, one job each. Named here, apart
 * from the jobs themselves, so the sync and each job can queue the next ones without importing
 * one another.
 */
export const SHIPMENT_UPDATE_QUEUES = {
  status: 'write-shipment-status',
  progress: 'report-shipment-progress',
  fulfil: 'fulfil-shipment',
  delivery: 'record-delivery',
  cancelled: 'flag-cancelled-shipment',
} as const;

export type ShipmentUpdate = keyof typeof SHIPMENT_UPDATE_QUEUES;

/** Every update job carries the shipment's reference (the order id) and nothing else. */
export const shipmentUpdatePayload = z.object({
  reference: z.string().regex(/^\d{1,20}$/, 'must be a numeric Shopify order id'),
});
export type ShipmentUpdatePayload = z.infer<typeof shipmentUpdatePayload>;

/**
 * A tracking number as a job id part: BullMQ ids may not hold ':', and numbers are the carrier's
 * to spell, so the id holds a digest of it.
 */
export function numberKey(trackingNumber: string): string {
  return createHash('sha256').update(trackingNumber).digest('hex').slice(0, 16);
}
