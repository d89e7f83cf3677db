import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../../config/index.js';
import type { StoreOrder } from './order.js';
import { buildReceiver } from './receiver.js';
import {
  collects,
  type ShipmentContents,
  shipmentContents,
  unitsOfShipment,
} from './shipment-contents.js';
import { clean, hasAnyTag } from './text.js';
import { unitWeightMilligrams } from './weight.js';

/** The parts of an order a shipment is made from, each compared on its own. */
export const FINGERPRINT_PARTS = ['receiver', 'lines', 'weights'] as const;
export type FingerprintPart = (typeof FINGERPRINT_PARTS)[number];

/**
 * One short hash per part: enough to tell that a part changed, never what it holds, so it may be
 * kept beside an order without personal data (a receiver's address cannot be read back from it).
 */
export type ShipmentFingerprint = Readonly<Record<FingerprintPart, string>>;

/**
 * The shipment-relevant state of an order, read the way the mapping reads it
 * (src/domain/shipment-request.ts) but before any setting is applied:
 * - receiver: name, company, phone and address, cleaned as they are sent (not the email, which is
 *   only sent when SEND_RECEIVER_EMAIL is on);
 * - lines: document or package, and the shipment's contents (shipment-contents.ts), held units
 *   included: product types and quantities;
 * - weights: each shipped line's unit weight as Shopify has it.
 * Titles, default weights and boxes are left out, so renaming a product or changing a setting
 * does not read as an edit of the order.
 */
export function shipmentFingerprint(
  order: StoreOrder,
  settings: Pick<FingerprintSettings, 'documentTag' | 'collectFromLocations'>,
  contents: ShipmentContents = shipmentContents(order, settings),
): ShipmentFingerprint {
  const receiver = buildReceiver(order, false, new Map());
  // Units Shopify holds back are still the shipment's: a hold placed after registration is not
  // an edit of what the provider ships.
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
      // Without a default: an item with no weight stays "no weight" whatever DEFAULT_WEIGHT_KG says.
      shipped
        .map((item) => JSON.stringify([type(item), unitWeightMilligrams(item.weight, 0)]))
        .sort(),
    ),
  };
}

/**
 * What an order webhook's body (REST-shaped, as Shopify sends it) shows of the parts a fingerprint
 * is made from: the receiver, the lines and the document tag. Parsed leniently: a part left out or
 * sent in another shape is absent.
 */
export interface OrderBodyParts {
  /** The order's updated_at as the body gives it. */
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
  // Staff fulfilling some of the units sent is an edit of the shipment; the connector's own
  // fulfilment comes once the parcel is handed over, when only the receiver counts.
  'fulfillable_quantity',
];

/**
 * What an order body shows, as `receiver.lines`: two short hashes, of its receiver, and of its
 * lines and document tag. The connector's own writes (tags, metafields, progress reports, events)
 * change neither. What a body does not show (a product's live weight or type, a fulfillment
 * order moved or held) is not in it.
 */
export function orderBodyView(parts: OrderBodyParts, documentTag: string): string {
  const text = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));
  const receiver = hashOf([
    text(parts.phone),
    ...BODY_ADDRESS_FIELDS.map((field) => text(parts.shippingAddress?.[field])),
  ]);
  const lines = hashOf([
    hasAnyTag((parts.tags ?? '').split(','), [documentTag]) ? 'document' : 'package',
    ...parts.lineItems
      .map((item) => JSON.stringify(BODY_LINE_FIELDS.map((field) => item[field] ?? null)))
      .sort(),
  ]);
  return `${receiver}.${lines}`;
}

/**
 * Whether a body whose view is `now` shows no edit since one whose view was `before`: nothing
 * changed, or only the lines once they no longer count (`receiverOnly`, as for the edit check
 * after the parcel was handed to the carrier).
 */
export function bodyShowsNoEdit(
  before: string | null,
  now: string,
  { receiverOnly }: { receiverOnly: boolean },
): boolean {
  if (before === now) return true;
  return receiverOnly && before?.split('.')[0] === now.split('.')[0];
}

/**
 * The settings that decide what a shipment holds and how its fingerprint reads the order
 * (DOCUMENT_TAG, COLLECT_FROM_LOCATIONS, SHIP_PICKUP_POINTS). Kept with what was sent, so the
 * order is compared with it the way it was taken then: a setting changed since is not an edit.
 */
export type FingerprintSettings = Pick<
  Config['shipment'],
  'documentTag' | 'collectFromLocations' | 'shipPickupPoints'
>;

const fingerprintSettings = z.object({
  documentTag: z.string(),
  collectFromLocations: z.array(z.string()),
  shipPickupPoints: z.boolean(),
});

/**
 * How the settings are kept: JSON of these three only (a tag, location ids or names, a choice).
 * The locations as configured, and the ids of the order's own locations they named then: a
 * location renamed since, with COLLECT_FROM_LOCATIONS following it, is still the one sent from.
 * None configured: every own location.
 */
export function encodeSettings(
  settings: FingerprintSettings,
  order: Pick<StoreOrder, 'fulfillmentOrders'>,
): string {
  const { documentTag, collectFromLocations, shipPickupPoints } = settings;
  const named = order.fulfillmentOrders.flatMap(({ location }) =>
    location.id &&
    !location.isFulfillmentService &&
    collectFromLocations.length > 0 &&
    collects(collectFromLocations, location)
      ? [location.id]
      : [],
  );
  return JSON.stringify({
    documentTag,
    collectFromLocations: [...new Set([...collectFromLocations, ...named])],
    shipPickupPoints,
  });
}

/** The kept settings read back; null when none were kept (or not legibly). */
export function decodeSettings(text: string | undefined | null): FingerprintSettings | null {
  if (!text) return null;
  try {
    return fingerprintSettings.parse(JSON.parse(text));
  } catch {
    return null;
  }
}

/** The parts that differ, in a fixed order. */
export function changedParts(
  before: ShipmentFingerprint,
  after: ShipmentFingerprint,
): FingerprintPart[] {
  return FINGERPRINT_PARTS.filter((part) => before[part] !== after[part]);
}

/**
 * Which way the parts are computed; stored with them. 2: lines and weights from the shipment's
 * contents (fulfillment orders); 1 (stored without a version): every line requiring shipping.
 */
export const FINGERPRINT_VERSION = 2;

/** How a fingerprint is stored: `v=2;receiver=…;lines=…;weights=…`. */
export function encodeFingerprint(fingerprint: ShipmentFingerprint): string {
  return [
    `v=${FINGERPRINT_VERSION}`,
    ...FINGERPRINT_PARTS.map((part) => `${part}=${fingerprint[part]}`),
  ].join(';');
}

/**
 * Whether a stored fingerprint was computed the way it is now. An older one's receiver still
 * compares; its lines and weights do not.
 */
export function isCurrentFingerprint(text: string | undefined | null): boolean {
  return /^v=(\d+);/.exec(text ?? '')?.[1] === String(FINGERPRINT_VERSION);
}

/** The stored form read back; null when absent or not a fingerprint. */
export function decodeFingerprint(text: string | undefined | null): ShipmentFingerprint | null {
  if (!text) return null;
  const parts = new Map(text.split(';').map((entry) => entry.split('=', 2) as [string, string]));
  const decoded: Partial<Record<FingerprintPart, string>> = {};
  for (const part of FINGERPRINT_PARTS) {
    const hash = parts.get(part);
    if (!hash || !HASH.test(hash)) return null;
    decoded[part] = hash;
  }
  return decoded as ShipmentFingerprint;
}

/** What staff read: "the receiver (name, address or phone) and the lines". */
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
