import type { Config } from '../../config/index.js';
import { shipmentContents } from '../../src/domain/shipment-contents.js';
import {
  changedParts,
  decodeFingerprint,
  describeChanges,
  encodeFingerprint,
  type FingerprintPart,
  shipmentFingerprint,
} from '../../src/domain/shipment-fingerprint.js';
import { isHandedToCarrier } from '../../src/domain/shipment-progress.js';
import type { Logger } from '../../src/log.js';
import type { Counters } from '../../src/metrics/counters.js';
import type { OrderRecords } from '../../src/records/order-records.js';
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

  const current = shipmentFingerprint(
    order,
    deps.settings.shipment,
    shipmentContents(order, deps.settings.shipment.collectFromLocations),
  );
  const sent = decodeFingerprint(record.sentFingerprint);
  if (!sent) {
    // Registered before fingerprints were kept: what it is now is the best we know of it.
    await deps.records.adoptSentFingerprint(orderId, encodeFingerprint(current));
    deps.logger.info(
      { orderId },
      'no fingerprint of the sent shipment: the order as it is now is kept',
    );
    return { outcome: 'baseline_recorded' };
  }
  // Once the provider handed the parcel to its carrier, the connector's own fulfilment empties
  // what is left to ship: only a change of receiver still means something then.
  const shipped = isHandedToCarrier((await deps.tracking.get(orderId))?.stage ?? 'pending');
  const compared: readonly FingerprintPart[] = shipped
    ? ['receiver']
    : ['receiver', 'lines', 'weights'];
  const changes = changedParts(sent, current).filter((part) => compared.includes(part));
  if (changes.length === 0) return { outcome: 'unchanged' };

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
