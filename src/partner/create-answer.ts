import { z } from 'zod';
import {
  createResponseSchema,
  statusSchema,
  timestampSchema,
  trackingRecordSchema,
} from './schemas.js';
import { parsePartnerTimestamp } from './time.js';

/**
 * What a 2xx to POST /shipments tells us. That answer proves the shipment exists, so it is read
 * for what we need, the order number, and never turned into a failed create because something
 * else in it is odd.
 */
export interface CreatedShipment {
  reference: string;
  order_number: string;
  /** Absent when the answer's status could not be read. */
  status?: string;
  /** When the provider made it, as the provider wrote it; absent when it could not be read. */
  created_at?: string;
}

export type AnswerReading =
  /** The whole answer matched the contract. */
  | { complete: true; shipment: CreatedShipment }
  /** It did not; `shipment` holds what could be read (undefined without an order number). */
  | { complete: false; shipment: CreatedShipment | undefined; issues: string };

/** Reads the body of a 2xx to POST /shipments. */
export function readCreateAnswer(body: unknown, reference: string): AnswerReading {
  const full = createResponseSchema.safeParse(body);
  if (full.success) return { complete: true, shipment: full.data };
  return {
    complete: false,
    shipment: salvage(body, reference),
    issues: describeZodIssues(full.error),
  };
}

/** Reads the body of GET /shipments/{reference}, asked for a shipment whose create answer was lost. */
export function readLookedUpShipment(body: unknown, reference: string): AnswerReading {
  const full = trackingRecordSchema.safeParse(body);
  if (full.success) {
    return {
      complete: true,
      shipment: {
        reference: full.data.reference,
        order_number: full.data.order_number,
        status: full.data.status,
        created_at: creationFromHistory(full.data),
      },
    };
  }
  return {
    complete: false,
    shipment: salvage(body, reference),
    issues: describeZodIssues(full.error),
  };
}

/**
 * When the provider made a shipment, read from its tracking record, which has no created_at: the
 * earliest history entry (the contract lists history oldest first only "in the reference
 * behaviour", so the first entry may be the latest), else updated_at.
 */
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

const orderNumberOnly = z.object({
  order_number: z.string().refine((value) => value.trim().length > 0),
});

/** The order number, and the status and creation time where they are well-formed. */
function salvage(body: unknown, reference: string): CreatedShipment | undefined {
  const essential = orderNumberOnly.safeParse(body);
  if (!essential.success) return undefined;
  const { status, created_at } = body as Record<string, unknown>;
  const readStatus = statusSchema.safeParse(status);
  const readCreatedAt = timestampSchema.safeParse(created_at);
  return {
    reference,
    order_number: essential.data.order_number,
    ...(readStatus.success ? { status: readStatus.data } : {}),
    ...(readCreatedAt.success ? { created_at: readCreatedAt.data } : {}),
  };
}

/** The first few problems of a body, by field, for a message an admin reads. */
export function describeZodIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || 'body'}: ${i.message}`)
    .join('; ');
}
