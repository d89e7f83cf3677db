import { z } from 'zod';
import { ISO_COUNTRY_CODES } from './country-codes.js';

/**
 * The create request and the API's bounds (../shared/partner-shipment-api.md). The sandbox reads
 * the contract separately and test/contract holds both to one table, so a wrong bound here cannot
 * hide behind a sandbox that shares it.
 */

export const LIMITS = {
  referenceMaxLength: 255,
  quantity: { min: 1, max: 100 },
  weightKg: { min: 0.1, max: 30, documentMax: 2 },
  lengthCmMax: 120,
  widthCmMax: 50,
  heightCmMax: 50,
} as const;

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
    .refine(
      (code) => ISO_COUNTRY_CODES.has(code),
      'The country code must be an ISO 3166-1 alpha-2 code in capitals, such as DK.',
    ),
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

const side = (field: string, max: number) =>
  numberField(field)
    .positive(`The ${field} must be greater than 0.`)
    .max(max, `The ${field} may not be greater than ${max}.`);

export const packageLineSchema = z.object({
  quantity: numberField('quantity')
    .int('The quantity must be a whole number.')
    .min(LIMITS.quantity.min, `The quantity must be at least ${LIMITS.quantity.min}.`)
    .max(LIMITS.quantity.max, `The quantity may not be greater than ${LIMITS.quantity.max}.`),
  weight_kg: numberField('weight kg')
    .min(LIMITS.weightKg.min, `The weight kg must be at least ${LIMITS.weightKg.min}.`)
    .max(LIMITS.weightKg.max, `The weight kg may not be greater than ${LIMITS.weightKg.max}.`),
  length_cm: side('length cm', LIMITS.lengthCmMax),
  width_cm: side('width cm', LIMITS.widthCmMax),
  height_cm: side('height cm', LIMITS.heightCmMax),
});

export const ORDER_TYPES = ['package', 'document'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

/** `z.object` strips unknown keys, so no pricing or account id can reach the wire. */
export const shipmentRequestSchema = z
  .object({
    // Not trimmed: the reference is an identifier and must come back exactly as sent.
    reference: z
      .string(required('reference'))
      .refine((v) => v.trim().length > 0, 'The reference field is required.')
      // Characters, not UTF-16 units: an emoji counts once.
      .refine(
        (v) => [...v].length <= LIMITS.referenceMaxLength,
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
  .superRefine(
    (req, ctx) => {
      // Runs on a partly invalid request too, so nothing here may be taken for granted.
      const draft = req as { order_type?: unknown; packages?: unknown };
      if (draft.order_type !== 'document' || !Array.isArray(draft.packages)) return;
      draft.packages.forEach((line: unknown, i) => {
        const weight = (line as { weight_kg?: unknown } | null)?.weight_kg;
        if (typeof weight === 'number' && weight > LIMITS.weightKg.documentMax) {
          ctx.addIssue({
            code: 'custom',
            path: ['packages', i, 'weight_kg'],
            message: `The weight kg may not be greater than ${LIMITS.weightKg.documentMax} for documents.`,
          });
        }
      });
    },
    // By default zod skips this once another field has failed; the API lists every problem at once.
    { when: () => true },
  );

export type ShipmentRequest = z.infer<typeof shipmentRequestSchema>;
export type PackageLine = z.infer<typeof packageLineSchema>;

/** Field errors keyed by dotted path (`packages.0.weight_kg`), as the API reports them. */
export type FieldErrors = Record<string, string[]>;

export function fieldErrorsFrom(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    errors[key] = [...(errors[key] ?? []), issue.message];
  }
  return errors;
}
