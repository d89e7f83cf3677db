import { isHandedToCarrier } from '../../src/domain/shipment-progress.js';
import { retryFailedJob } from '../../src/queue/failed-jobs.js';
import type { TrackedShipment } from '../../src/records/shipment-tracking.js';
import type { QueueContext } from '../context.js';
import { orderJobName } from '../job-name.js';
import {
  numberKey,
  SHIPMENT_UPDATE_QUEUES,
  type ShipmentUpdate,
  type ShipmentUpdatePayload,
  updateJobId,
} from './updates.js';

/** In their own request, when behind. */
const CARRIES_STATUS: ReadonlySet<ShipmentUpdate> = new Set(['progress', 'fulfil', 'delivery']);

type PendingUpdate = { update: ShipmentUpdate; payload: ShipmentUpdatePayload };

/**
 * Each id names what is written, so a write queued twice runs once and a new status or number
 * gets a job of its own. A progress report, fulfilment or delivered event carries the status
 * metafields itself; `status` is returned apart, for when that write fails.
 */
export function pendingUpdates(
  shipment: TrackedShipment,
  settings: { reportProgress: boolean },
): PendingUpdate[] {
  const { updates, status } = plannedUpdates(shipment, settings);
  return status && !updates.some((u) => CARRIES_STATUS.has(u.update))
    ? [status, ...updates]
    : updates;
}

function plannedUpdates(
  shipment: TrackedShipment,
  settings: { reportProgress: boolean },
): { updates: PendingUpdate[]; status?: PendingUpdate } {
  const reference = shipment.reference;
  const updates: PendingUpdate[] = [];
  const status: PendingUpdate | undefined =
    shipment.writtenStatus !== statusVersion(shipment)
      ? { update: 'status', payload: { reference, version: statusVersion(shipment) } }
      : undefined;
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
  return status ? { updates, status } : { updates };
}

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
  now = Date.now(),
): Promise<number> {
  let queued = 0;
  const updates = pendingUpdates(shipment, ctx.settings.sync);
  const { status } = plannedUpdates(shipment, ctx.settings.sync);
  const statusCarried = status !== undefined && !updates.includes(status);
  let carrierFailed = false;
  const queueOne = async ({ update, payload }: PendingUpdate) => {
    const name = SHIPMENT_UPDATE_QUEUES[update];
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
    const due = now - existing.finishedOn >= RETRY_FAILED_UPDATE_AFTER_MS;
    if (due && (await retryFailedJob(existing)) === 'retried') queued += 1;
  };
  for (const update of updates) await queueOne(update);
  // The write that was to carry the status failed: the status goes on its own.
  if (statusCarried && carrierFailed) await queueOne(status);
  return queued;
}
