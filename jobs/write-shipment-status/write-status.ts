import {
  METAFIELD_KEYS,
  METAFIELD_NAMESPACE,
  STATUS_LABELS,
} from '../../src/domain/order-marks.js';
import type { Logger } from '../../src/log.js';
import type { ShipmentTracking, TrackedShipment } from '../../src/records/shipment-tracking.js';
import { StoreUserError } from '../../src/store/errors.js';
import type { MetafieldEntry, OrderMarks } from '../../src/store/types.js';
import { statusVersion } from '../shipment-updates/follow-ups.js';

export interface WriteStatusDeps {
  store: Pick<OrderMarks, 'setOrderMetafields'>;
  tracking: Pick<ShipmentTracking, 'get' | 'labels' | 'saveShopifySide'>;
  logger: Logger;
}

export interface StatusWriteOptions {
  /** So a caller can send its own marks in the same request as the first write. */
  firstWrite?: (metafields: MetafieldEntry[]) => Promise<void>;
  /** So it is not read twice. */
  shipment?: TrackedShipment;
}

/** Write made, only the status refused: carry on (a replay must not repeat it), then throw this. */
export function onlyStatusRefused(error: unknown): error is StoreUserError {
  return error instanceof StoreUserError && error.writeMade;
}

/** A shipment that keeps changing is caught next time. */
const MAX_WRITES = 3;

/** Reads again after writing and writes a newer status, so statuses never move backwards. */
export async function writeShipmentStatus(
  reference: string,
  deps: WriteStatusDeps,
  options: StatusWriteOptions = {},
): Promise<'written' | 'unknown'> {
  let shipment = options.shipment ?? (await deps.tracking.get(reference));
  if (!shipment) return 'unknown';
  for (let writes = 0; writes < MAX_WRITES; writes += 1) {
    const labels = await deps.tracking.labels();
    const metafields = statusMetafields(shipment, labels);
    if (writes === 0 && options.firstWrite) {
      try {
        await options.firstWrite(metafields);
      } catch (error) {
        // The caller's write was refused, the metafields in its request set all the same.
        if (error instanceof StoreUserError && error.orderStatusSet) {
          await deps.tracking.saveShopifySide(reference, {
            writtenStatus: statusVersion(shipment),
          });
        }
        throw error;
      }
    } else await deps.store.setOrderMetafields(reference, metafields);
    await deps.tracking.saveShopifySide(reference, { writtenStatus: statusVersion(shipment) });
    const after = await deps.tracking.get(reference);
    if (!after || statusVersion(after) === statusVersion(shipment)) return 'written';
    shipment = after;
  }
  return 'written';
}

function statusMetafields(
  shipment: TrackedShipment,
  labels: Readonly<Record<string, string>>,
): MetafieldEntry[] {
  const text = (key: string, value: string): MetafieldEntry => ({
    namespace: METAFIELD_NAMESPACE,
    key,
    value,
    type: 'single_line_text_field',
  });
  const label = labels[shipment.status] ?? STATUS_LABELS[shipment.status] ?? shipment.status;
  return [
    text(METAFIELD_KEYS.orderNumber, shipment.orderNumber),
    text(METAFIELD_KEYS.status, shipment.status),
    text(METAFIELD_KEYS.statusLabel, label),
    text(METAFIELD_KEYS.statusUpdatedAt, shipment.updatedAt),
    ...(shipment.carrier ? [text(METAFIELD_KEYS.carrier, shipment.carrier)] : []),
    ...(shipment.trackingNumber
      ? [text(METAFIELD_KEYS.trackingNumber, shipment.trackingNumber)]
      : []),
  ];
}
