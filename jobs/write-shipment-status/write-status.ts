import {
  METAFIELD_KEYS,
  METAFIELD_NAMESPACE,
  STATUS_LABELS,
} from '../../src/domain/order-marks.js';
import type { TrackedShipment } from '../../src/records/shipment-tracking.js';
import { StoreUserError } from '../../src/store/errors.js';
import type { MetafieldEntry } from '../../src/store/types.js';
import type { JobContext } from '../context.js';
import {
  type StatusSettings,
  statusMetafieldsDue,
  statusVersion,
} from '../shipment-updates/follow-ups.js';

export interface WriteStatusDeps extends Pick<JobContext, 'logger'> {
  store: Pick<JobContext['store'], 'setOrderMetafields'>;
  tracking: Pick<JobContext['tracking'], 'get' | 'labels' | 'saveShopifySide'>;
}

type FollowUpDeps = WriteStatusDeps & { settings: { sync: StatusSettings } };

/** `shown: false`: the caller's writes could not show the status. */
export async function writeStatusIfDue(
  shipment: TrackedShipment,
  deps: FollowUpDeps,
  options: { shown?: boolean } = {},
): Promise<void> {
  if (!statusMetafieldsDue(shipment, deps.settings.sync, options)) return;
  await writeShipmentStatus(shipment.reference, deps, { shipment });
}

/**
 * One write per id, the first carrying the status metafields when due. Write made, only the status
 * refused: the rest go on (a replay must not repeat them) and the refusal is returned, to throw after.
 */
export async function writeEachWithStatus(
  shipment: TrackedShipment,
  ids: readonly string[],
  deps: FollowUpDeps,
  write: (
    id: string,
    orderStatus?: { orderId: string; metafields: MetafieldEntry[] },
  ) => Promise<unknown>,
): Promise<StoreUserError | undefined> {
  const [first, ...rest] = ids;
  if (!first || !statusMetafieldsDue(shipment, deps.settings.sync)) {
    for (const id of ids) await write(id);
    return undefined;
  }
  let statusRefused: StoreUserError | undefined;
  try {
    await writeShipmentStatus(shipment.reference, deps, {
      shipment,
      firstWrite: async (metafields) => {
        await write(first, { orderId: shipment.reference, metafields });
      },
    });
  } catch (error) {
    if (!(error instanceof StoreUserError && error.writeMade)) throw error;
    statusRefused = error;
  }
  for (const id of rest) await write(id);
  return statusRefused;
}

/** A shipment that keeps changing is caught next time. */
const MAX_WRITES = 3;

/** Reads again after writing and writes a newer status, so statuses never move backwards. */
export async function writeShipmentStatus(
  reference: string,
  deps: WriteStatusDeps,
  options: {
    /** So a caller can send its own marks in the same request as the first write. */
    firstWrite?: (metafields: MetafieldEntry[]) => Promise<void>;
    /** So it is not read twice. */
    shipment?: TrackedShipment;
  } = {},
): Promise<'written' | 'unknown'> {
  let shipment = options.shipment ?? (await deps.tracking.get(reference));
  if (!shipment) return 'unknown';
  for (let writes = 0; writes < MAX_WRITES; writes += 1) {
    const labels = await deps.tracking.labels();
    const metafields = statusMetafields(shipment, labels);
    const writtenStatus = statusVersion(shipment);
    if (writes === 0 && options.firstWrite) {
      try {
        await options.firstWrite(metafields);
      } catch (error) {
        // The caller's write was refused, the metafields in its request set all the same.
        if (error instanceof StoreUserError && error.orderStatusSet) {
          await deps.tracking.saveShopifySide(reference, { writtenStatus });
        }
        throw error;
      }
    } else await deps.store.setOrderMetafields(reference, metafields);
    await deps.tracking.saveShopifySide(reference, { writtenStatus });
    const after = await deps.tracking.get(reference);
    if (!after || statusVersion(after) === writtenStatus) return 'written';
    shipment = after;
  }
  return 'written';
}

export const metafieldText = (key: string, value: string, multiLine = false): MetafieldEntry => ({
  namespace: METAFIELD_NAMESPACE,
  key,
  value,
  type: multiLine ? 'multi_line_text_field' : 'single_line_text_field',
});

function statusMetafields(shipment: TrackedShipment, labels: Readonly<Record<string, string>>) {
  const label = labels[shipment.status] ?? STATUS_LABELS[shipment.status] ?? shipment.status;
  return [
    metafieldText(METAFIELD_KEYS.orderNumber, shipment.orderNumber),
    metafieldText(METAFIELD_KEYS.status, shipment.status),
    metafieldText(METAFIELD_KEYS.statusLabel, label),
    metafieldText(METAFIELD_KEYS.statusUpdatedAt, shipment.updatedAt),
    ...(shipment.carrier ? [metafieldText(METAFIELD_KEYS.carrier, shipment.carrier)] : []),
    ...(shipment.trackingNumber
      ? [metafieldText(METAFIELD_KEYS.trackingNumber, shipment.trackingNumber)]
      : []),
  ];
}
