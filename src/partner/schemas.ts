import { z } from 'zod';

/**
 * The Partner Shipment API's answers (../shared/partner-shipment-api.md), parsed with these.
 * What a valid create request is lives in src/domain/shipment-contract.ts, since the domain
 * builds requests to it.
 */

/** Statuses the API documents. Others may appear and are treated as "in progress". */
export const KNOWN_STATUSES = [
  'pending',
  'processing',
  'shipped',
  'delivered',
  'cancelled',
] as const;
export type KnownStatus = (typeof KNOWN_STATUSES)[number];
/** Kept as a plain string so an unknown status never fails parsing. */
export const statusSchema = z.string().min(1);

export function isTerminalStatus(status: string): status is 'delivered' | 'cancelled' {
  return status === 'delivered' || status === 'cancelled';
}

/** ISO 8601 with a UTC offset; kept as the string the API sent so the offset survives. */
export const timestampSchema = z.iso.datetime({ offset: true });

export const tokenRecordSchema = z.object({
  token: z.string().min(1),
  token_type: z.string(),
  account: z.string(),
  created_at: timestampSchema,
});
export type TokenRecord = z.infer<typeof tokenRecordSchema>;

export const createResponseSchema = z.object({
  reference: z.string(),
  order_number: z.string().min(1),
  status: statusSchema,
  created_at: timestampSchema,
});
export type CreateResponse = z.infer<typeof createResponseSchema>;

export const trackingRecordSchema = z.object({
  reference: z.string(),
  order_number: z.string(),
  status: statusSchema,
  status_label: z.string(),
  carrier: z.string().nullable(),
  tracking_number: z.string().nullable(),
  updated_at: timestampSchema,
  history: z.array(z.object({ status: statusSchema, occurred_at: timestampSchema })),
});
export type TrackingRecord = z.infer<typeof trackingRecordSchema>;

export const listItemSchema = z.object({
  reference: z.string(),
  order_number: z.string(),
  status: statusSchema,
  updated_at: timestampSchema,
});
export type ListItem = z.infer<typeof listItemSchema>;

export const listEnvelopeSchema = z.object({
  data: z.array(listItemSchema),
  meta: z.object({ page: z.number(), per_page: z.number(), total: z.number() }),
});
export type ListEnvelope = z.infer<typeof listEnvelopeSchema>;

export const errorBodySchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export interface ListQuery {
  status?: string;
  /** Sent as ISO 8601 with the Europe/Copenhagen offset. */
  createdAfter?: Date;
  perPage?: number;
  page?: number;
}
