import { FinalJobError } from '../../src/queue/failure-policy.js';
import type { JobContext, JobSettings } from '../context.js';
import {
  type WriteStatusDeps,
  writeEachWithStatus,
  writeStatusIfDue,
} from '../write-shipment-status/write-status.js';

export interface RecordDeliveryDeps extends WriteStatusDeps {
  store: Pick<JobContext['store'], 'readFulfillmentState' | 'createFulfillmentEvent'> &
    WriteStatusDeps['store'];
  settings: Pick<JobSettings, 'sync'>;
}

/**
 * Due status metafields go with the first event, or alone when no fulfillment shows it. `retry`: an
 * earlier attempt may have added the event and lost the answer, so fulfillments are read first.
 */
export async function recordDelivery(
  reference: string,
  deps: RecordDeliveryDeps,
  options: { retry?: boolean } = {},
): Promise<'recorded' | 'already-recorded' | 'no-fulfillment' | 'stale'> {
  const shipment = await deps.tracking.get(reference);
  if (!shipment) return 'stale';
  const number = shipment.trackingNumber;
  const stale = shipment.stage !== 'delivered' || !number;
  if (stale || shipment.deliveryRecordedAt) {
    await writeStatusIfDue(shipment, deps);
    return stale ? 'stale' : 'already-recorded';
  }
  let ours =
    shipment.fulfilledNumber === number && !options.retry
      ? shipment.fulfillmentIds?.split(',').filter(Boolean)
      : undefined;
  let toMark = ours;
  if (!ours || !toMark) {
    const order = await deps.store.readFulfillmentState(reference);
    if (!order) {
      throw new FinalJobError(
        `Order ${reference} is no longer in Shopify, so the delivery of shipment ${shipment.orderNumber} cannot be recorded on it.`,
      );
    }
    const carrying = order.fulfillments.filter(
      (f) => f.status === 'SUCCESS' && f.tracking.some((t) => t.number === number),
    );
    ours = carrying.map((f) => f.id);
    toMark = carrying.filter((f) => f.displayStatus !== 'DELIVERED').map((f) => f.id);
  }

  const event = shipment.deliveredAt ? { happenedAt: shipment.deliveredAt } : {};
  const statusRefused = await writeEachWithStatus(shipment, toMark, deps, (id, orderStatus) =>
    deps.store.createFulfillmentEvent(id, 'DELIVERED', { ...event, orderStatus }),
  );
  if (toMark.length === 0) await writeStatusIfDue(shipment, deps, { shown: ours.length > 0 });
  await deps.tracking.saveShopifySide(reference, { deliveryRecordedAt: new Date().toISOString() });
  if (statusRefused) throw statusRefused;
  if (ours.length === 0) {
    deps.logger.info({ reference }, 'delivered, but no fulfillment carries its number');
    return 'no-fulfillment';
  }
  return toMark.length > 0 ? 'recorded' : 'already-recorded';
}
