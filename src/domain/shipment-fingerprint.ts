import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { StoreOrder } from './order.js';
import { buildReceiver } from './receiver.js';
import {
  namesLocation,
  type ShipmentContents,
  shipmentContents,
  unitsOfShipment,
} from './shipment-contents.js';
import { clean, hasAnyTag } from './text.js';
import { unitWeightMilligrams } from './weight.js';

export const FINGERPRINT_PARTS = ['receiver', 'lines', 'weights'] as const;
export type FingerprintPart = (typeof FINGERPRINT_PARTS)[number];

/** A short hash per part: tells that it changed, never what it holds (no personal data). */
export type ShipmentFingerprint = Readonly<Record<FingerprintPart, string>>;

/**
 * The order read as the mapping reads it, before settings apply: the receiver as sent (no email:
 * SEND_RECEIVER_EMAIL decides it); document or package, product types and quantities, held units
 * included; unit weights as Shopify has them. No titles, default weights or boxes: a renamed
 * product or changed setting is not an edit.
 */
export function shipmentFingerprint(
  order: StoreOrder,
  settings: Pick<FingerprintSettings, 'documentTag' | 'collectFromLocations'>,
  contents: ShipmentContents = shipmentContents(order, settings),
): ShipmentFingerprint {
  const receiver = buildReceiver(order, false, new Map());
  // Held units stay the shipment's: a hold placed after registration is not an edit.
  const shipped = unitsOfShipment(order, contents);
  const type = (item: StoreOrder['lineItems'][number]) => clean(item.productType)?.toLowerCase();
  return {
    receiver: hashOf([
      receiver.name,
      receiver.company_name,
      receiver.phone,
      receiver.address?.street,
      receiver.address?.city,
      receiver.address?.postal_code,
      receiver.address?.country_code,
    ]),
    lines: hashOf([
      hasAnyTag(order.tags, [settings.documentTag]) ? 'document' : 'package',
      ...shipped.map((item) => JSON.stringify([type(item), item.quantity])).sort(),
    ]),
    weights: hashOf(
      // No default: an item without weight stays so whatever DEFAULT_WEIGHT_KG says.
      shipped
        .map((item) => JSON.stringify([type(item), unitWeightMilligrams(item.weight, 0)]))
        .sort(),
    ),
  };
}

/** The parts as an order webhook's REST body shows them; one in another shape is absent. */
export interface OrderBodyParts {
  updatedAt?: string | null;
  phone?: string | null;
  tags?: string | null;
  shippingAddress?: Record<string, unknown> | null;
  lineItems: Record<string, unknown>[];
}

const BODY_ADDRESS_FIELDS = [
  'name',
  'company',
  'phone',
  'address1',
  'address2',
  'city',
  'zip',
  'country_code',
];
const BODY_LINE_FIELDS = [
  'id',
  'variant_id',
  'quantity',
  'current_quantity',
  'requires_shipping',
  // Staff fulfilling sent units is an edit; the connector's own fulfilment comes after handover,
  // when only the receiver counts.
  'fulfillable_quantity',
];

/**
 * `receiver.lines` hashes. The connector's own writes (tags, metafields, events) change neither;
 * live weights and types, and fulfillment orders moved or held, are not in a body.
 */
export function orderBodyView(parts: OrderBodyParts, documentTag: string): string {
  const receiver = hashOf([
    JSON.stringify(parts.phone),
    ...BODY_ADDRESS_FIELDS.map((field) => JSON.stringify(parts.shippingAddress?.[field])),
  ]);
  const lines = hashOf([
    hasAnyTag((parts.tags ?? '').split(','), [documentTag]) ? 'document' : 'package',
    ...parts.lineItems
      .map((item) => JSON.stringify(BODY_LINE_FIELDS.map((field) => item[field] ?? null)))
      .sort(),
  ]);
  return `${receiver}.${lines}`;
}

/** Nothing changed, or only lines that no longer count (`receiverOnly`: after handover). */
export function bodyShowsNoEdit(
  before: string | null,
  now: string,
  { receiverOnly }: { receiverOnly: boolean },
): boolean {
  if (before === now) return true;
  return receiverOnly && before?.split('.')[0] === now.split('.')[0];
}

const fingerprintSettings = z.object({
  documentTag: z.string(),
  collectFromLocations: z.array(z.string()),
  shipPickupPoints: z.boolean(),
});

/** Kept with what was sent, so a setting changed since is not taken for an edit. */
export type FingerprintSettings = z.infer<typeof fingerprintSettings>;

/**
 * JSON; the locations also by the ids they named then: a location renamed since (and
 * COLLECT_FROM_LOCATIONS with it) is still the one sent from. None configured: every own location.
 */
export function encodeSettings(
  settings: FingerprintSettings,
  order: Pick<StoreOrder, 'fulfillmentOrders'>,
): string {
  const { documentTag, collectFromLocations, shipPickupPoints } = settings;
  const named = order.fulfillmentOrders.flatMap(({ location }) =>
    location.id &&
    !location.isFulfillmentService &&
    collectFromLocations.some((entry) => namesLocation(entry, location))
      ? [location.id]
      : [],
  );
  return JSON.stringify({
    documentTag,
    collectFromLocations: [...new Set([...collectFromLocations, ...named])],
    shipPickupPoints,
  });
}

export function decodeSettings(text: string | undefined | null): FingerprintSettings | null {
  if (!text) return null;
  try {
    return fingerprintSettings.parse(JSON.parse(text));
  } catch {
    return null;
  }
}

export function changedParts(before: ShipmentFingerprint, after: ShipmentFingerprint) {
  return FINGERPRINT_PARTS.filter((part) => before[part] !== after[part]);
}

/** 2: lines and weights from fulfillment orders; 1 (stored unversioned): every shipping line. */
export const FINGERPRINT_VERSION = 2;

/** How a fingerprint is stored: `v=2;receiver=…;lines=…;weights=…`. */
export function encodeFingerprint(fingerprint: ShipmentFingerprint): string {
  return [
    `v=${FINGERPRINT_VERSION}`,
    ...FINGERPRINT_PARTS.map((part) => `${part}=${fingerprint[part]}`),
  ].join(';');
}

/** An older version's receiver still compares; its lines and weights do not. */
export function isCurrentFingerprint(text: string | undefined | null): boolean {
  return /^v=(\d+);/.exec(text ?? '')?.[1] === String(FINGERPRINT_VERSION);
}

export function decodeFingerprint(text: string | undefined | null): ShipmentFingerprint | null {
  if (!text) return null;
  const parts = new Map(text.split(';').map((entry) => entry.split('=', 2) as [string, string]));
  const decoded = FINGERPRINT_PARTS.map((part) => [part, parts.get(part) ?? ''] as const);
  if (!decoded.every(([, hash]) => HASH.test(hash))) return null;
  return Object.fromEntries(decoded) as ShipmentFingerprint;
}

export function describeChanges(parts: readonly FingerprintPart[]): string {
  const words = parts.map((part) => CHANGE_WORDS[part]);
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

const CHANGE_WORDS: Record<FingerprintPart, string> = {
  receiver: 'the receiver (name, address or phone)',
  lines: 'the lines (items or quantities)',
  weights: 'the weights',
};

const HASH_LENGTH = 16;
const HASH = new RegExp(`^[0-9a-f]{${HASH_LENGTH}}$`);

function hashOf(values: readonly (string | undefined)[]): string {
  return createHash('sha256')
    .update(JSON.stringify(values.map((value) => value ?? null)))
    .digest('hex')
    .slice(0, HASH_LENGTH);
}
