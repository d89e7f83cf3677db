import { isHandedToCarrier } from '../../src/domain/shipment-progress.js';
import { retryFailedJob } from '../../src/queue/failed-jobs.js';
import type { TrackedShipment } from '../../src/records/shipment-tracking.js';
import type { JobSettings, QueueContext } from '../context.js';
import { orderJobName } from '../job-name.js';
import {
  numberKey,
  SHIPMENT_UPDATES,
  type ShipmentUpdate,
  type ShipmentUpdatePayload,
  updateJobId,
} from './updates.js';

/** Carry the status metafields in their own request, when behind. */
const CARRIES_STATUS: ReadonlySet<ShipmentUpdate> = new Set(['progress', 'fulfil', 'delivery']);

type PendingUpdate = { update: ShipmentUpdate; payload: ShipmentUpdatePayload };

export type StatusSettings = Pick<JobSettings['sync'], 'reportProgress' | 'statusMetafields'>;

/** Progress, fulfil and delivery carry the status when due; `status` is apart, for if they fail. */
export function pendingUpdates(shipment: TrackedShipment, settings: StatusSettings) {
  const reference = shipment.reference;
  const updates: PendingUpdate[] = [];
  if (settings.reportProgress && shipment.stage === 'processing' && !shipment.progressReportedAt) {
    updates.push({ update: 'progress', payload: { reference } });
  }
  const number = shipment.trackingNumber;
  if (
    isHandedToCarrier(shipment.stage) &&
    number &&
    shipment.fulfilledNumber !== number &&
    shipment.unfulfillableNumber !== number
  ) {
    updates.push({ update: 'fulfil', payload: { reference, version: numberKey(number) } });
  }
  // The delivered event goes on the fulfillment that carries the number.
  if (
    shipment.stage === 'delivered' &&
    number &&
    shipment.fulfilledNumber === number &&
    !shipment.deliveryRecordedAt
  ) {
    updates.push({ update: 'delivery', payload: { reference } });
  }
  if (shipment.stage === 'cancelled' && !shipment.cancelFlaggedAt) {
    updates.push({ update: 'cancelled', payload: { reference } });
  }
  return statusMetafieldsDue(shipment, settings) &&
    !updates.some((u) => CARRIES_STATUS.has(u.update))
    ? [statusUpdate(shipment), ...updates]
    : updates;
}

/** Counts as shown while its job is to run; one that could not show it passes `shown: false`. */
function shopifyShows(shipment: TrackedShipment, settings: StatusSettings): boolean {
  // Adopted: the order lacks the registered tag and number, which only the metafields bring.
  if (shipment.adoptedAtStage !== undefined) return false;
  const number = shipment.trackingNumber;
  switch (shipment.status) {
    case 'pending':
    case 'cancelled':
      return true;
    case 'processing':
      return settings.reportProgress;
    case 'shipped':
    case 'delivered':
      return number !== undefined && shipment.unfulfillableNumber !== number;
    default:
      // A status beyond the contract's: Shopify has nothing to show it with.
      return false;
  }
}

/**
 * The one decider: when Shopify cannot show the status, or once the order has them (kept current
 * so they never contradict Shopify). `always`: for themes, Flow or apps.
 */
export function statusMetafieldsDue(
  shipment: TrackedShipment,
  settings: StatusSettings,
  options: { shown?: boolean } = {},
): boolean {
  if (shipment.writtenStatus === statusVersion(shipment)) return false;
  if (shipment.writtenStatus !== undefined || settings.statusMetafields === 'always') return true;
  return !(options.shown ?? shopifyShows(shipment, settings));
}

const statusUpdate = (shipment: TrackedShipment): PendingUpdate => ({
  update: 'status',
  payload: { reference: shipment.reference, version: statusVersion(shipment) },
});

/** A detail read may bring the number after the status. */
export function statusVersion(shipment: TrackedShipment): string {
  const number = shipment.trackingNumber ? numberKey(shipment.trackingNumber).slice(0, 12) : '';
  return `${shipment.updatedAtMs.toString(16)}${number}`;
}

/** A Shopify outage ends, a hold is released: the next sync cycle tries again, unreplayed. */
export const RETRY_FAILED_UPDATE_AFTER_MS = 3_600_000;

/** BullMQ ignores adding an existing job id: a write already queued or running is not doubled. */
export async function queueShipmentUpdates(
  ctx: Pick<QueueContext, 'queueOf' | 'settings'>,
  shipment: TrackedShipment,
): Promise<number> {
  let queued = 0;
  let carrierFailed = false;
  const queueOne = async ({ update, payload }: PendingUpdate) => {
    const name = SHIPMENT_UPDATES[update].queue;
    const queue = ctx.queueOf({ queue: name });
    const jobId = updateJobId(update, payload);
    const existing = await queue.getJob(jobId);
    if (!existing) {
      await queue.add(orderJobName(name.replaceAll('-', ' '), payload.reference), payload, {
        jobId,
      });
      queued += 1;
      return;
    }
    if (existing.finishedOn === undefined || (await existing.getState()) !== 'failed') return;
    if (CARRIES_STATUS.has(update)) carrierFailed = true;
    const due = Date.now() - existing.finishedOn >= RETRY_FAILED_UPDATE_AFTER_MS;
    if (due && (await retryFailedJob(existing)) === 'retried') queued += 1;
  };
  for (const update of pendingUpdates(shipment, ctx.settings.sync)) await queueOne(update);
  // The write that was to carry the status failed (so it was not queued apart): it goes on its own.
  if (carrierFailed && shipment.writtenStatus !== statusVersion(shipment)) {
    await queueOne(statusUpdate(shipment));
  }
  return queued;
}
