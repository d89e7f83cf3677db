import { z } from 'zod';
import { parsePartnerTimestamp } from './time.js';

/**
 * The Partner Shipment API's wire shapes and bounds (../shared/partner-shipment-api.md).
 * The client checks requests with these before sending and parses every response with them;
 * the local sandbox validates with the same request schema, so the bounds live in one place.
 */

export const LIMITS = {
  referenceMaxLength: 255,
  quantity: { min: 1, max: 100 },
  weightKg: { min: 0.1, max: 30, documentMax: 2 },
  lengthCmMax: 120,
  widthCmMax: 50,
  heightCmMax: 50,
  perPageMax: 200,
  perPageDefault: 50,
  bodyBytesMax: 2 * 1024 * 1024,
} as const;

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

/**
 * A date and time in any ISO 8601 form (`+01:00`, `+0100`, `Z`, to the minute, …): the API
 * promises ISO 8601, not one spelling of it. Kept as the string the API sent so the offset
 * survives; `parsePartnerTimestamp` gives the instant.
 */
export const timestampSchema = z
  .string()
  .refine((text) => parsePartnerTimestamp(text) !== undefined, 'must be an ISO 8601 date and time');

/** "required" when absent, else "must be <a kind>": the API's style of message. */
const required = (field: string, kind = 'a string') => ({
  error: (issue: { input: unknown }) =>
    issue.input === undefined || issue.input === null
      ? `The ${field} field is required.`
      : `The ${field} field must be ${kind}.`,
});
const text = (field: string) =>
  z.string(required(field)).trim().min(1, `The ${field} field is required.`);

export const addressSchema = z.object({
  street: text('street'),
  city: text('city'),
  postal_code: text('postal code'),
  country_code: z
    .string(required('country code'))
    .regex(/^[A-Z]{2}$/, 'The country code must be an uppercase ISO 3166-1 alpha-2 code.'),
});

export const partySchema = z.object({
  name: text('name'),
  phone: text('phone'),
  email: z.email('The email must be a valid email address.').optional(),
  company_name: z.string().trim().min(1).optional(),
  address: z.object(addressSchema.shape, required('address', 'an object')),
});

const numberField = (field: string) =>
  z.number({
    error: (issue) =>
      issue.input === undefined
        ? `The ${field} field is required.`
        : `The ${field} must be a number.`,
  });

export const packageLineSchema = z.object({
  quantity: numberField('quantity')
    .int('The quantity must be a whole number.')
    .min(LIMITS.quantity.min, `The quantity must be at least ${LIMITS.quantity.min}.`)
    .max(LIMITS.quantity.max, `The quantity may not be greater than ${LIMITS.quantity.max}.`),
  weight_kg: numberField('weight kg')
    .min(LIMITS.weightKg.min, `The weight kg must be at least ${LIMITS.weightKg.min}.`)
    .max(LIMITS.weightKg.max, `The weight kg may not be greater than ${LIMITS.weightKg.max}.`),
  length_cm: numberField('length cm')
    .positive('The length cm must be greater than 0.')
    .max(LIMITS.lengthCmMax, `The length cm may not be greater than ${LIMITS.lengthCmMax}.`),
  width_cm: numberField('width cm')
    .positive('The width cm must be greater than 0.')
    .max(LIMITS.widthCmMax, `The width cm may not be greater than ${LIMITS.widthCmMax}.`),
  height_cm: numberField('height cm')
    .positive('The height cm must be greater than 0.')
    .max(LIMITS.heightCmMax, `The height cm may not be greater than ${LIMITS.heightCmMax}.`),
});

export const ORDER_TYPES = ['package', 'document'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

/**
 * The create request. `z.object` strips unknown keys, so whatever the caller passes, no
 * `pricing`, `unit_price`, `total_price` or account id can reach the wire.
 */
export const shipmentRequestSchema = z
  .object({
    // Not trimmed: the reference is an identifier and must come back exactly as sent.
    reference: z
      .string(required('reference'))
      .refine((v) => v.trim().length > 0, 'The reference field is required.')
      .max(
        LIMITS.referenceMaxLength,
        `The reference may not be greater than ${LIMITS.referenceMaxLength} characters.`,
      ),
    order_type: z.enum(ORDER_TYPES, {
      error: (issue) =>
        issue.input === undefined
          ? 'The order type field is required.'
          : 'The selected order type is invalid.',
    }),
    content_description: text('content description'),
    sender: z.object(partySchema.shape, required('sender', 'an object')),
    receiver: z.object(partySchema.shape, required('receiver', 'an object')),
    packages: z
      .array(packageLineSchema, required('packages', 'a list'))
      .min(1, 'The packages field must have at least 1 item.'),
  })
  .superRefine((req, ctx) => {
    if (req.order_type !== 'document') return;
    req.packages.forEach((line, i) => {
      if (line.weight_kg > LIMITS.weightKg.documentMax) {
        ctx.addIssue({
          code: 'custom',
          path: ['packages', i, 'weight_kg'],
          message: `The weight kg may not be greater than ${LIMITS.weightKg.documentMax} for documents.`,
        });
      }
    });
  });

export type ShipmentRequest = z.infer<typeof shipmentRequestSchema>;
export type PackageLine = z.infer<typeof packageLineSchema>;

/** Field errors keyed by dotted path (`packages.0.weight_kg`), as the API reports them. */
export type FieldErrors = Record<string, string[]>;

export function fieldErrorsFrom(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    errors[key] ??= [];
    errors[key].push(issue.message);
  }
  return errors;
}

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
