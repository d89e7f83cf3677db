import type { Config } from '../../config/index.js';
import type { StoreOrder } from '../../src/domain/order.js';
import {
  type ShipmentTime,
  shipmentContents,
  shipmentSentSinceMs,
} from '../../src/domain/shipment-contents.js';
import {
  changedParts,
  decodeFingerprint,
  decodeSettings,
  describeChanges,
  encodeFingerprint,
  encodeSettings,
  type FingerprintPart,
  type FingerprintSettings,
  isCurrentFingerprint,
  type ShipmentFingerprint,
  shipmentFingerprint,
} from '../../src/domain/shipment-fingerprint.js';
import { isHandedToCarrier } from '../../src/domain/shipment-progress.js';
import type { Logger } from '../../src/log.js';
import type { Counters } from '../../src/metrics/counters.js';
import type { OrderRecord, OrderRecords } from '../../src/records/order-records.js';
import type { ShipmentTracking } from '../../src/records/shipment-tracking.js';
import type { StoreClient } from '../../src/store/types.js';
import type { MarkOrder } from '../mark-order/payload.js';

export interface CheckOrderEditDeps {
  store: Pick<StoreClient, 'getOrder'>;
  records: OrderRecords;
  tracking: Pick<ShipmentTracking, 'get'>;
  counters: Counters;
  settings: Pick<Config, 'shipment'>;
  markOrder: MarkOrder;
  logger: Logger;
}

export type EditCheck =
  | { outcome: 'not_registered' | 'cancelled' | 'not_found' | 'unchanged' | 'baseline_recorded' }
  | { outcome: 'reported' | 'already_reported'; changes: string[] };

/**
 * Whether a registered order still matches the shipment sent for it. A material change (the
 * receiver, the lines, the weights) is reported once: logged, counted, and marked on the order
 * for staff (tag and note, saying what changed but never the values). Our own marks change the
 * order too and bring it back here; the same change is then already reported and nothing is
 * written, so marking cannot loop.
 */
export async function checkOrderEdit(
  orderId: string,
  deps: CheckOrderEditDeps,
): Promise<EditCheck> {
  const record = await deps.records.get(orderId);
  if (record?.state !== 'registered') return { outcome: 'not_registered' };
  // A cancelled order is flagged as such; an edit no longer matters.
  if (record.cancelledAfterRegistrationAt) return { outcome: 'cancelled' };
  const order = await deps.store.getOrder(orderId);
  if (!order) return { outcome: 'not_found' };
  if (order.cancelledAt) return { outcome: 'cancelled' };
  // Once the provider handed the parcel to its carrier, the connector's own fulfilment empties
  // what is left to ship: only a change of receiver still means something then.
  const shipped = isHandedToCarrier((await deps.tracking.get(orderId))?.stage ?? 'pending');
  return compareWithSent(orderId, record, order, { receiverOnly: shipped }, deps);
}

/**
 * Compares a registered order with what was sent for it, and reports a change: the one judgement
 * of an edit, for the edit check and for a create answered with an earlier request's shipment.
 * The order is taken under the settings that request was made under, so a setting changed since
 * (DOCUMENT_TAG, COLLECT_FROM_LOCATIONS, SHIP_PICKUP_POINTS) is never reported as an edit.
 * `receiverOnly`: the lines and weights no longer say anything (the parcel was handed over).
 * Deliveries due after the send (a prepaid subscription's next boxes) were never part of the
 * shipment, opened since or not.
 */
export async function compareWithSent(
  orderId: string,
  record: OrderRecord,
  order: StoreOrder,
  { receiverOnly }: { receiverOnly: boolean },
  deps: Pick<CheckOrderEditDeps, 'records' | 'counters' | 'settings' | 'markOrder' | 'logger'>,
): Promise<EditCheck> {
  const sent = decodeFingerprint(record.sentFingerprint);
  const sentMs = shipmentSentSinceMs(record, Number.NaN);
  const when: ShipmentTime = Number.isNaN(sentMs)
    ? { now: new Date() }
    : { sentAt: new Date(sentMs) };
  // Kept before the lines and weights were counted from the shipment's contents: only its
  // receiver compares, and the order as it is now becomes what later checks compare with.
  const comparable = sent !== null && isCurrentFingerprint(record.sentFingerprint);
  const kept = decodeSettings(record.sentSettings);
  const settings =
    kept ??
    (comparable
      ? settingsOfEarlierSend(order, sent, deps.settings.shipment, when)
      : deps.settings.shipment);
  const current = shipmentFingerprint(order, settings, shipmentContents(order, settings, when));
  // Kept with the record from the first look on (never replacing settings kept before), so a
  // setting changed later is never taken for an edit.
  const keptSettings = encodeSettings(settings, order);
  if (!sent) {
    // Registered before fingerprints were kept, or found at the provider after a lost answer:
    // what it is now is the best we know of it.
    await deps.records.adoptSentFingerprint(orderId, encodeFingerprint(current), keptSettings);
    deps.logger.info(
      { orderId },
      'no fingerprint of the sent shipment: the order as it is now is kept',
    );
    return { outcome: 'baseline_recorded' };
  }
  if (!comparable) {
    await deps.records.rebaseSentFingerprint(
      orderId,
      record.sentFingerprint ?? '',
      encodeFingerprint(current),
      keptSettings,
    );
  } else if (!kept) {
    await deps.records.keepSentSettings(orderId, keptSettings);
  }
  const compared: readonly FingerprintPart[] =
    receiverOnly || !comparable ? ['receiver'] : ['receiver', 'lines', 'weights'];
  let changes = changedParts(sent, current).filter((part) => compared.includes(part));
  if ('sentAt' in when && changes.some((part) => part !== 'receiver')) {
    // A delivery staff opened early ("Fulfill early") before the send was part of it: its lines
    // and weights count as changed only if they differ with what is open now taken as sent too.
    const openNow = shipmentFingerprint(order, settings, shipmentContents(order, settings));
    changes = changes.filter((part) => part === 'receiver' || openNow[part] !== sent[part]);
  }
  if (changes.length === 0) return { outcome: comparable ? 'unchanged' : 'baseline_recorded' };
  return reportEditAfterRegistration(orderId, record, current, changes, deps);
}

/**
 * Reports a change of a registered order against what the provider holds, once per change: a
 * log line, the counter, and the order's tag and note (unless already on it).
 */
async function reportEditAfterRegistration(
  orderId: string,
  record: OrderRecord,
  current: ShipmentFingerprint,
  changes: FingerprintPart[],
  deps: Pick<CheckOrderEditDeps, 'records' | 'counters' | 'logger' | 'markOrder'>,
): Promise<EditCheck> {
  const fingerprint = encodeFingerprint(current);
  const reported = await deps.records.reportEdit(orderId, fingerprint, changes);
  if (reported) {
    await deps.counters.increment('orders_edited_after_registration');
    deps.logger.warn(
      { orderId, orderNumber: record.orderNumber, changes },
      `order edited after its shipment was registered (${describeChanges(changes)} changed): tell the provider`,
    );
  }
  // Marked unless the order already carries this report: also restores a mark a crash lost
  // between the report and the queueing.
  if (reported || record.editMarkedFingerprint !== fingerprint) {
    await deps.markOrder(orderId, 'order_edited');
  }
  return { outcome: reported ? 'reported' : 'already_reported', changes };
}

/**
 * The settings a shipment sent before they were kept with it is taken under: today's, unless
 * its lines and weights read as sent only when every own location and pickup point counts (one
 * of those settings was narrowed since it was sent): then those, with today's DOCUMENT_TAG.
 */
function settingsOfEarlierSend(
  order: StoreOrder,
  sent: ShipmentFingerprint,
  today: FingerprintSettings,
  when: ShipmentTime,
): FingerprintSettings {
  const wide = { ...today, collectFromLocations: [], shipPickupPoints: true };
  const differing = (settings: FingerprintSettings) =>
    changedParts(
      sent,
      shipmentFingerprint(order, settings, shipmentContents(order, settings, when)),
    ).filter((part) => part !== 'receiver').length;
  return differing(wide) < differing(today) ? wide : today;
}
