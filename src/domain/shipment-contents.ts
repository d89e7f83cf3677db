import type { Config } from '../../config/index.js';
import type { StoreFulfillmentOrder, StoreLineItem, StoreOrder } from './order.js';
import { clean } from './text.js';

/** What ships, from fulfillment orders, not line quantities: the one answer every step uses. */
export interface ShipmentContents {
  /** Units to ship now, one entry per fulfillment order line. */
  lines: ContentLine[];
  /** Units Shopify holds back (on hold, scheduled, not yet fulfillable): the order waits. */
  held: HeldUnits[];
  leftOut: LeftOutUnits[];
}

export interface ContentLine {
  item: StoreLineItem;
  quantity: number;
  fulfillmentOrderId: string;
  fulfillmentOrderLineItemId: string;
  location: StoreFulfillmentOrder['location'];
}

export interface HeldUnits {
  /** LineItem gid. */
  lineItemId: string;
  title: string;
  quantity: number;
  /** "is on hold (Other)", "is scheduled for 2030-01-01T09:00:00Z". */
  why: string;
  /** A scheduled fulfillment order's fulfillAt; else null. */
  until: string | null;
  fulfillmentOrderId: string;
  location: StoreFulfillmentOrder['location'];
}

export type LeftOutReason =
  | 'fulfilled'
  | 'fulfillment_service'
  | 'other_location'
  | 'not_visible'
  | 'digital'
  | 'not_delivered'
  | 'closed'
  | 'later';

export interface LeftOutUnits {
  title: string;
  quantity: number;
  reason: LeftOutReason;
  /** The line's total units (for `fulfilled`). */
  of?: number;
  /** Read after the title, e.g. "is at Another app's warehouse (…)". */
  why: string;
}

/**
 * Pickup-point orders ship to their shipping address only when opted in: the API has no
 * pickup-point field, and Shopify does not document that the address is the pickup point's.
 */
export type ContentsSettings = Pick<Config['shipment'], 'collectFromLocations'> &
  Partial<Pick<Config['shipment'], 'shipPickupPoints'>>;
/**
 * Counts all units the provider may have been asked for: reads sentUnits after settings change.
 * Closed, fulfillment-service, digital and local pickup or delivery units still never count.
 */
export const ANY_SENT_UNITS: ContentsSettings = {
  collectFromLocations: [],
  shipPickupPoints: true,
};

const HELD = new Set(['ON_HOLD', 'SCHEDULED']);
const OPEN = new Set(['OPEN', 'IN_PROGRESS']);

const METHOD_WORDS: Record<string, string> = {
  PICKUP_POINT:
    'is for a pickup point, whose address Shopify does not give reliably (SHIP_PICKUP_POINTS=true ships it to the shipping address)',
  PICK_UP: 'is for local pickup',
  LOCAL: 'is for local delivery',
  RETAIL: 'was handed over in a shop',
  NONE: 'needs no delivery',
};

/**
 * `now` for a shipment about to be sent, `sentAt` for one sent. A fulfillment order due after that
 * (fulfillAt: a subscription's next box, a pre-order) is a later delivery, not this shipment:
 * before sending, only if still SCHEDULED; once sent, whether opened since or not.
 */
export type ShipmentTime = { now: Date } | { sentAt: Date };

export function shipmentContents(
  order: StoreOrder,
  settings: ContentsSettings | readonly string[],
  when: ShipmentTime = { now: new Date() },
): ShipmentContents {
  const { collectFromLocations: collectFrom, shipPickupPoints = false } =
    'collectFromLocations' in settings ? settings : { collectFromLocations: settings };
  const carried = new Set(shipPickupPoints ? ['SHIPPING', 'PICKUP_POINT'] : ['SHIPPING']);
  const items = new Map(order.lineItems.map((item) => [item.id, item]));
  const contents: ShipmentContents = { lines: [], held: [], leftOut: [] };
  const onVisibleOrders = new Map<string, number>();
  const later: LaterUnits[] = [];

  for (const fo of order.fulfillmentOrders) {
    const method = fo.deliveryMethod ?? 'SHIPPING';
    for (const line of fo.lineItems) {
      const item = items.get(line.lineItemId);
      if (!item || line.remainingQuantity <= 0) continue;
      const quantity = line.remainingQuantity;
      onVisibleOrders.set(item.id, (onVisibleOrders.get(item.id) ?? 0) + quantity);
      const leave = (reason: LeftOutReason, why: string) =>
        contents.leftOut.push({ title: titleOf(item), quantity, reason, why });

      if (!OPEN.has(fo.status) && !HELD.has(fo.status)) {
        leave('closed', `is on a ${fo.status.toLowerCase()} fulfillment order`);
      } else if (fo.location.isFulfillmentService) {
        leave(
          'fulfillment_service',
          `is at ${fo.location.name} (a fulfillment service or another app)`,
        );
      } else if (!collects(collectFrom, fo.location)) {
        leave(
          'other_location',
          `is at ${fo.location.name}, which the provider does not collect from`,
        );
      } else if (!item.requiresShipping) {
        leave('digital', 'needs no shipping');
      } else if (!carried.has(method)) {
        leave('not_delivered', METHOD_WORDS[method] ?? `has delivery method ${method}`);
      } else if (isLaterDelivery(fo, when)) {
        later.push({ item, quantity, fo });
      } else if (HELD.has(fo.status) || !fo.supportedActions.includes('CREATE_FULFILLMENT')) {
        // Open but without CREATE_FULFILLMENT: waits like a held one, or the provider would ship
        // units the connector cannot mark as fulfilled.
        contents.held.push(heldUnits(item, quantity, fo));
      } else {
        contents.lines.push({
          item,
          quantity,
          fulfillmentOrderId: fo.id,
          fulfillmentOrderLineItemId: line.id,
          location: fo.location,
        });
      }
    }
  }

  // One shipment per order: with nothing else to ship, now or once released, the order waits for
  // the first later delivery, and is sent when it opens without the others.
  const opens = ({ fo }: LaterUnits) => Date.parse(fo.fulfillAt ?? '');
  const first = Math.min(...later.map(opens));
  const waitsForFirst = 'now' in when && contents.lines.length === 0 && contents.held.length === 0;
  const awaited = waitsForFirst ? later.filter((units) => opens(units) === first) : [];
  for (const { item, quantity, fo } of awaited) contents.held.push(heldUnits(item, quantity, fo));
  contents.leftOut.push(...laterDeliveries(later.filter((units) => !awaited.includes(units))));

  for (const item of order.lineItems) {
    if (!item.requiresShipping) continue;
    const fulfilled = item.quantity - item.unfulfilledQuantity;
    if (fulfilled > 0) {
      contents.leftOut.push({
        title: titleOf(item),
        quantity: fulfilled,
        reason: 'fulfilled',
        of: item.quantity,
        why: 'already fulfilled',
      });
    }
    // Unfulfilled units on no visible fulfillment order: a fulfillment service's, seen only with
    // read_third_party_fulfillment_orders.
    const unseen =
      Math.min(item.quantity, item.unfulfilledQuantity) - (onVisibleOrders.get(item.id) ?? 0);
    if (unseen > 0) {
      contents.leftOut.push({
        title: titleOf(item),
        quantity: unseen,
        reason: 'not_visible',
        why: 'is on a fulfillment order the connector cannot see (a fulfillment service or another app)',
      });
    }
  }
  return contents;
}

export function shippedItems(contents: {
  lines: readonly { item: StoreLineItem; quantity: number }[];
}): StoreLineItem[] {
  const byItem = new Map<string, StoreLineItem>();
  for (const { item, quantity } of contents.lines) {
    const seen = byItem.get(item.id);
    byItem.set(item.id, { ...item, quantity: (seen?.quantity ?? 0) + quantity });
  }
  return [...byItem.values()];
}

/** Units to ship now plus those Shopify holds back: still the provider's to ship. */
export function unitsOfShipment(order: StoreOrder, contents: ShipmentContents): StoreLineItem[] {
  const items = new Map(order.lineItems.map((item) => [item.id, item]));
  const held = contents.held.flatMap(({ lineItemId, quantity }) => {
    const item = items.get(lineItemId);
    return item ? [{ item, quantity }] : [];
  });
  return shippedItems({ ...contents, lines: [...contents.lines, ...held] });
}

export function describeLeftOut(leftOut: readonly Omit<LeftOutUnits, 'reason'>[]): string {
  return leftOut
    .map((u) => `${u.quantity}${u.of === undefined ? '' : ` of ${u.of}`} × ${u.title} ${u.why}`)
    .join('; ');
}

export const RECHECK_FIRST_MS = 5 * 60_000;
/** Longest gap between looks at an order waiting on a hold. */
export const RECHECK_MAX_MS = 3600_000;
/** Gap between looks before a schedule's date (maybe months): only "Fulfill early" opens one. */
export const RECHECK_SCHEDULED_MS = 6 * 3600_000;
/** Listed by `connector drift` (a schedule: past its date): it may never end. Still looked at. */
export const WAITING_TOO_LONG_MS = 7 * 24 * 3600_000;

/**
 * Shopify need not change the order when a hold is released, so it is read again after as long as
 * it has waited (RECHECK_FIRST_MS to RECHECK_MAX_MS). A schedule: when it opens, and every
 * RECHECK_SCHEDULED_MS before; past its date and still scheduled, backs off from it like a hold.
 */
export function recheckDue(
  held: readonly Pick<HeldUnits, 'until'>[],
  now: Date,
  waitingSince: Date = now,
): Date {
  const nowMs = now.getTime();
  const backOffFrom = (startMs: number) =>
    nowMs + Math.min(RECHECK_MAX_MS, Math.max(RECHECK_FIRST_MS, nowMs - startMs));
  let due = nowMs + (held.length > 0 ? RECHECK_SCHEDULED_MS : RECHECK_MAX_MS);
  for (const units of held) {
    const opens = Date.parse(units.until ?? '');
    if (Number.isNaN(opens)) due = Math.min(due, backOffFrom(waitingSince.getTime()));
    else if (opens > nowMs) due = Math.min(due, opens);
    else due = Math.min(due, backOffFrom(Math.max(opens, waitingSince.getTime())));
  }
  return new Date(due);
}

/** Its start, or for schedules alone their first date: the wait is not late before that. */
export function waitCountsFrom(held: readonly Pick<HeldUnits, 'until'>[], waitingSince: Date) {
  const times = held.map((units) => Date.parse(units.until ?? ''));
  if (times.length === 0 || times.some((time) => Number.isNaN(time))) return waitingSince;
  return new Date(Math.max(waitingSince.getTime(), Math.min(...times)));
}

/**
 * `lineItemId×quantity@fulfillmentOrderId.fulfillmentOrderLineItemId.locationId,…` (numeric ids,
 * no location when Shopify gives none). The fulfilment fulfils at most these; the ids spare it and
 * the progress report a re-read. Old records (`lineItemId×quantity`) still decode as units.
 */
export function encodeSentUnits(contents: ShipmentContents): string {
  return contents.lines
    .map((line) => {
      const ids = [line.fulfillmentOrderId, line.fulfillmentOrderLineItemId, line.location.id];
      const at = ids.flatMap((id) => (id ? [numericId(id)] : [])).join('.');
      return `${numericId(line.item.id)}x${line.quantity}@${at}`;
    })
    .join(',');
}

const SENT_ENTRY = /^(\d+)x(\d+)(?:@(\d+)\.(\d+)(?:\.(\d+))?)?$/;

/** By line item gid, summed over its lines; null when none were kept. */
export function decodeSentUnits(text: string | undefined | null): Map<string, number> | null {
  if (text === undefined || text === null) return null;
  const units = new Map<string, number>();
  for (const entry of text.split(',')) {
    const match = SENT_ENTRY.exec(entry);
    if (!match) continue;
    const id = `gid://shopify/LineItem/${match[1]}`;
    units.set(id, (units.get(id) ?? 0) + Number(match[2]));
  }
  return units;
}

export interface SentLine {
  lineItemId: string;
  quantity: number;
  fulfillmentOrderId: string;
  fulfillmentOrderLineItemId: string;
  /** Location gid; null when Shopify gave none. */
  locationId: string | null;
}

/** Null when none were kept, or kept without the fulfillment order ids (an old record). */
export function decodeSentLines(text: string | undefined | null): SentLine[] | null {
  if (!text) return null;
  const lines: SentLine[] = [];
  for (const entry of text.split(',')) {
    const match = SENT_ENTRY.exec(entry);
    if (!match?.[3] || !match[4]) return null;
    lines.push({
      lineItemId: `gid://shopify/LineItem/${match[1]}`,
      quantity: Number(match[2]),
      fulfillmentOrderId: `gid://shopify/FulfillmentOrder/${match[3]}`,
      fulfillmentOrderLineItemId: `gid://shopify/FulfillmentOrderLineItem/${match[4]}`,
      locationId: match[5] ? `gid://shopify/Location/${match[5]}` : null,
    });
  }
  return lines;
}

/** Sent-from fulfillment orders count as due: opened early, they are still this shipment's. */
export function keepingSentFrom(order: StoreOrder, sent: readonly SentLine[]): StoreOrder {
  const ids = new Set(sent.map((line) => line.fulfillmentOrderId));
  return {
    ...order,
    fulfillmentOrders: order.fulfillmentOrders.map((fo) =>
      ids.has(fo.id) ? { ...fo, fulfillAt: null } : fo,
    ),
  };
}

type Place = Pick<StoreFulfillmentOrder['location'], 'id' | 'name'>;

export function collects(collectFrom: readonly string[], location: Place): boolean {
  return collectFrom.length === 0 || collectFrom.some((wanted) => namesLocation(wanted, location));
}

export interface FulfillmentUnits {
  createdAt: string;
  locationId: string | null;
  locationName: string | null;
  /** That service's units, never the provider's. */
  atFulfillmentService: boolean;
  /** By LineItem gid. */
  lineItems: readonly { lineItemId: string; quantity: number }[];
}

/** Made since `sinceMs` (earlier: staff's), at an own location collected from, covering a line of `asked`. */
export function holdsSentUnits(
  fulfillment: FulfillmentUnits,
  asked: ReadonlyMap<string, number>,
  collectFrom: readonly string[],
  sinceMs: number,
): boolean {
  // Shopify's times are whole seconds: one made in the same second counts as made since.
  return (
    !(Date.parse(fulfillment.createdAt) < Math.floor(sinceMs / 1000) * 1000) &&
    !fulfillment.atFulfillmentService &&
    collects(collectFrom, { id: fulfillment.locationId, name: fulfillment.locationName ?? '' }) &&
    fulfillment.lineItems.some((line) => line.quantity > 0 && (asked.get(line.lineItemId) ?? 0) > 0)
  );
}

/**
 * From when a fulfillment may be the shipment's: the earlier of the kept request's send (Redis
 * clock) and the provider's creation time; in an old record, of the last send and the registration.
 */
export function shipmentSentSinceMs(
  record: {
    firstSentAtMs?: string | undefined;
    partnerCreatedAtMs?: string | undefined;
    sentAt?: string | undefined;
    registeredAt?: string | undefined;
  } | null,
  createdAtMs: number,
): number {
  const earliest = (texts: (string | undefined)[], read: (text: string) => number) => {
    const legible = texts.map((text) => (text ? read(text) : Number.NaN)).filter(Number.isFinite);
    return legible.length > 0 ? Math.min(...legible) : undefined;
  };
  return (
    earliest([record?.firstSentAtMs, record?.partnerCreatedAtMs], Number) ??
    earliest([record?.sentAt, record?.registeredAt], Date.parse) ??
    createdAtMs
  );
}

export function namesLocation(entry: string, location: Place): boolean {
  const value = entry.trim();
  if (location.id && numericId(value) === numericId(location.id)) return true;
  return value.toLowerCase() === location.name.trim().toLowerCase();
}

function isLaterDelivery(fo: StoreFulfillmentOrder, when: ShipmentTime): boolean {
  // No or an unreadable date (NaN) is never later.
  const opens = Date.parse(fo.fulfillAt ?? '');
  if ('sentAt' in when) return opens > when.sentAt.getTime();
  return fo.status === 'SCHEDULED' && opens > when.now.getTime();
}

type LaterUnits = { item: StoreLineItem; quantity: number; fo: StoreFulfillmentOrder };

function laterDeliveries(later: readonly LaterUnits[]): LeftOutUnits[] {
  const byItem = new Map<string, { title: string; quantity: number; next: string }>();
  for (const { item, quantity, fo } of later) {
    const seen = byItem.get(item.id);
    const at = fo.fulfillAt ?? '';
    byItem.set(item.id, {
      title: titleOf(item),
      quantity: (seen?.quantity ?? 0) + quantity,
      next: seen && Date.parse(seen.next) < Date.parse(at) ? seen.next : at,
    });
  }
  return [...byItem.values()].map(({ title, quantity, next }) => ({
    title,
    quantity,
    reason: 'later' as const,
    why: `${quantity === 1 ? 'is' : 'are'} scheduled for later deliveries (next on ${next.slice(0, 10)}): the provider takes one shipment per order`,
  }));
}

function heldUnits(item: StoreLineItem, quantity: number, fo: StoreFulfillmentOrder): HeldUnits {
  return {
    lineItemId: item.id,
    title: titleOf(item),
    quantity,
    why: heldWhy(fo),
    until: fo.status === 'SCHEDULED' ? fo.fulfillAt : null,
    fulfillmentOrderId: fo.id,
    location: fo.location,
  };
}

function heldWhy(fo: StoreFulfillmentOrder): string {
  if (fo.status === 'SCHEDULED') return `is scheduled${fo.fulfillAt ? ` for ${fo.fulfillAt}` : ''}`;
  if (fo.status === 'ON_HOLD') {
    return `is on hold${fo.holdReasons.length ? ` (${fo.holdReasons.join('; ')})` : ''}`;
  }
  return 'cannot be fulfilled by an app yet (its fulfillment order offers no fulfilment)';
}

function titleOf(item: StoreLineItem): string {
  return clean(item.title) ?? 'untitled';
}

function numericId(value: string): string {
  return value.slice(value.lastIndexOf('/') + 1);
}
