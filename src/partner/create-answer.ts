import { z } from 'zod';
import { statusSchema, timestampSchema, trackingRecordSchema } from './schemas.js';
import { parsePartnerTimestamp } from './time.js';

/** A 2xx to POST /shipments proves the shipment exists: oddities never make it a failed create. */
export interface CreatedShipment {
  reference: string;
  order_number: string;
  status?: string;
  created_at?: string;
}

/** Reads a shipment whose create answer was lost from its record. */
export const lookedUpSchema = trackingRecordSchema.transform((record) => ({
  reference: record.reference,
  order_number: record.order_number,
  status: record.status,
  created_at: creationFromHistory(record),
}));

/** `schema`: createResponseSchema, or lookedUpSchema. */
export function readAnswer(schema: z.ZodType<CreatedShipment>, body: unknown, reference: string) {
  const full = schema.safeParse(body);
  if (full.success) return { complete: true as const, shipment: full.data };
  // Without an order number nothing is salvaged.
  const salvaged = salvageable.safeParse(body);
  return {
    complete: false as const,
    shipment: salvaged.success ? { reference, ...salvaged.data } : undefined,
    issues: describeZodIssues(full.error),
  };
}

/** The contract promises history oldest first only "in the reference behaviour". */
export function creationFromHistory(record: {
  history: readonly { occurred_at: string }[];
  updated_at: string;
}): string {
  let earliest: { text: string; ms: number } | undefined;
  for (const { occurred_at: text } of record.history) {
    const ms = parsePartnerTimestamp(text)?.getTime();
    if (ms !== undefined && (!earliest || ms < earliest.ms)) earliest = { text, ms };
  }
  return earliest?.text ?? record.updated_at;
}

const salvageable = z.object({
  order_number: z.string().refine((value) => value.trim().length > 0),
  status: statusSchema.optional().catch(undefined),
  created_at: timestampSchema.optional().catch(undefined),
});

export function describeZodIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || 'body'}: ${i.message}`)
    .join('; ');
}
