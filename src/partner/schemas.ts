import { z } from 'zod';
import { SHIPMENT_STAGES } from '../domain/shipment-progress.js';
import { parsePartnerTimestamp } from './time.js';

/** Create requests are in src/domain/shipment-contract.ts, since the domain builds them. */

/** Others may appear and are treated as "in progress". */
export const KNOWN_STATUSES = [...SHIPMENT_STAGES, 'cancelled'] as const;
/** A plain string, so an unknown status never fails parsing. */
export const statusSchema = z.string().min(1);

/** Kept as sent so the offset survives; `parsePartnerTimestamp` gives the instant. */
export const timestampSchema = z
  .string()
  .refine((text) => parsePartnerTimestamp(text) !== undefined, 'must be an ISO 8601 date and time');

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

const listItemSchema = z.object({
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

export const errorBodySchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});

export interface ListQuery {
  status?: string;
  createdAfter?: Date;
  perPage?: number;
  page?: number;
}
