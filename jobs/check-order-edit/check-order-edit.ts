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
import type { OrderRecord } from '../../src/records/order-records.js';
import type { JobContext } from '../context.js';
import type { MarkOrder } from '../mark-order/payload.js';

export interface CheckOrderEditDeps extends Pick<JobContext, 'records' | 'counters' | 'logger'> {
  store: Pick<JobContext['store'], 'getOrder'>;
  tracking: Pick<JobContext['tracking'], 'get'>;
  settings: Pick<JobContext['settings'], 'shipment'>;
  markOrder: MarkOrder;
}

export type EditCheck =
  | { outcome: 'not_registered' | 'cancelled' | 'not_found' | 'unchanged' | 'baseline_recorded' }
  | { outcome: 'reported' | 'already_reported'; changes: string[] };

/** Our own marks bring the order back here; a change is reported once, so marking cannot loop. */
export async function checkOrderEdit(
  orderId: string,
  deps: CheckOrderEditDeps,
): Promise<EditCheck> {
  const record = await deps.records.get(orderId);
  if (record?.state !== 'registered') return { outcome: 'not_registered' };
  // Flagged as cancelled; an edit no longer matters.
  if (record.cancelledAfterRegistrationAt) return { outcome: 'cancelled' };
  const order = await deps.store.getOrder(orderId);
  if (!order) return { outcome: 'not_found' };
  if (order.cancelledAt) return { outcome: 'cancelled' };
  // Once handed to the carrier, our fulfilment empties what is left: only the receiver counts.
  const shipped = isHandedToCarrier((await deps.tracking.get(orderId))?.stage ?? 'pending');
  return compareWithSent(orderId, record, order, { receiverOnly: shipped }, deps);
}

/** As of the send and under its settings: a later setting or delivery is never an edit. */
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
  // An old fingerprint (before contents counted): only the receiver compares; now is the baseline.
  const comparable = sent !== null && isCurrentFingerprint(record.sentFingerprint);
  const kept = decodeSettings(record.sentSettings);
  const settings =
    kept ??
    (comparable
      ? settingsOfEarlierSend(order, sent, deps.settings.shipment, when)
      : deps.settings.shipment);
  const current = fingerprintOf(order, settings, when);
  const fingerprint = encodeFingerprint(current);
  // Kept from the first look on, so a later setting change is never taken for an edit.
  const keptSettings = encodeSettings(settings, order);
  if (!sent) {
    // Registered before fingerprints were kept, or found after a lost answer: now is all we know.
    await deps.records.adoptSentFingerprint(orderId, fingerprint, keptSettings);
    deps.logger.info(
      { orderId },
      'no fingerprint of the sent shipment: the order as it is now is kept',
    );
    return { outcome: 'baseline_recorded' };
  }
  if (!comparable) {
    const was = record.sentFingerprint ?? '';
    await deps.records.rebaseSentFingerprint(orderId, was, fingerprint, keptSettings);
  } else if (!kept) {
    await deps.records.keepSentSettings(orderId, keptSettings);
  }
  const compared: readonly FingerprintPart[] =
    receiverOnly || !comparable ? ['receiver'] : ['receiver', 'lines', 'weights'];
  let changes = changedParts(sent, current).filter((part) => compared.includes(part));
  if ('sentAt' in when && changes.some((part) => part !== 'receiver')) {
    // A delivery opened early before the send was part of it: compare with what is open now too.
    const openNow = fingerprintOf(order, settings);
    changes = changes.filter((part) => part === 'receiver' || openNow[part] !== sent[part]);
  }
  if (changes.length === 0) return { outcome: comparable ? 'unchanged' : 'baseline_recorded' };
  const reported = await deps.records.reportEdit(orderId, fingerprint, changes);
  if (reported) {
    await deps.counters.increment('orders_edited_after_registration');
    deps.logger.warn(
      { orderId, orderNumber: record.orderNumber, changes },
      `order edited after its shipment was registered (${describeChanges(changes)} changed): tell the provider`,
    );
  }
  // Also restores a mark a crash lost between the report and the queueing.
  if (reported || record.editMarkedFingerprint !== fingerprint) {
    await deps.markOrder(orderId, 'order_edited');
  }
  return { outcome: reported ? 'reported' : 'already_reported', changes };
}

/** For a send before settings were kept: the widest if they match it better, else today's. */
function settingsOfEarlierSend(
  order: StoreOrder,
  sent: ShipmentFingerprint,
  today: FingerprintSettings,
  when: ShipmentTime,
): FingerprintSettings {
  const wide = { ...today, collectFromLocations: [], shipPickupPoints: true };
  const differing = (settings: FingerprintSettings) =>
    changedParts(sent, fingerprintOf(order, settings, when)).filter((p) => p !== 'receiver').length;
  return differing(wide) < differing(today) ? wide : today;
}

function fingerprintOf(order: StoreOrder, settings: FingerprintSettings, when?: ShipmentTime) {
  return shipmentFingerprint(order, settings, shipmentContents(order, settings, when));
}
