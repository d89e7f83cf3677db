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

/**
 * Every update job carries the shipment's reference (the order id) and, for writes that happen
 * once per value, which value (the status's instant, the tracking number's digest): ids only.
 * The job reads what to write from the shipment's record when it runs.
 */
export const shipmentUpdatePayload = z.object({
  reference: z.string().regex(/^\d{1,20}$/, 'must be a numeric Shopify order id'),
  version: z
    .string()
    .regex(/^[0-9a-f]{1,32}$/, 'must be a number or a digest')
    .optional(),
});
export type ShipmentUpdatePayload = z.infer<typeof shipmentUpdatePayload>;

const JOB_ID_PREFIX: Record<ShipmentUpdate, string> = {
  status: 'shipment-status',
  progress: 'shipment-progress',
  fulfil: 'fulfil',
  delivery: 'delivery',
  cancelled: 'shipment-cancelled',
};

/** The job id of an update: one job per shipment and value, so a write queued twice runs once. */
export function updateJobId(update: ShipmentUpdate, payload: ShipmentUpdatePayload): string {
  const base = `${JOB_ID_PREFIX[update]}-${payload.reference}`;
  return payload.version ? `${base}-${payload.version}` : base;
}

/**
 * A tracking number as a job id part: BullMQ ids may not hold ':', and numbers are the carrier's
 * to spell, so the id holds a digest of it.
 */
export function numberKey(trackingNumber: string): string {
  return createHash('sha256').update(trackingNumber).digest('hex').slice(0, 16);
}
