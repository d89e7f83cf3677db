import type { Logger } from '../../src/log.js';
import { JobRefusedError } from '../../src/queue/failure-policy.js';
import type { ShipmentTracking } from '../../src/records/shipment-tracking.js';
import type { Fulfillments } from '../../src/store/types.js';

export interface RecordDeliveryDeps {
  store: Pick<Fulfillments, 'readFulfillmentState' | 'createFulfillmentEvent'>;
  tracking: Pick<ShipmentTracking, 'get' | 'saveShopifySide'>;
  logger: Logger;
}

/**
 * Delivered at the provider: a DELIVERED event on each fulfillment that carries the shipment's
 * number, at the time the provider reports. A fulfillment already shown delivered is left alone,
 * so a retry after a lost answer adds no second event.
 */
export async function recordDelivery(
  reference: string,
  deps: RecordDeliveryDeps,
): Promise<'recorded' | 'already-recorded' | 'no-fulfillment' | 'stale'> {
  const shipment = await deps.tracking.get(reference);
  if (shipment?.stage !== 'delivered' || !shipment.trackingNumber) return 'stale';
  if (shipment.deliveryRecordedAt) return 'already-recorded';
  const order = await deps.store.readFulfillmentState(reference);
  if (!order) {
    throw new JobRefusedError(
      `Order ${reference} is no longer in Shopify, so the delivery of shipment ${shipment.orderNumber} cannot be recorded on it.`,
    );
  }
  const number = shipment.trackingNumber;
  const ours = order.fulfillments.filter(
    (f) => f.status === 'SUCCESS' && f.tracking.some((t) => t.number === number),
  );
  let written = 0;
  for (const fulfillment of ours) {
    if (fulfillment.displayStatus === 'DELIVERED') continue;
    await deps.store.createFulfillmentEvent(fulfillment.id, 'DELIVERED', {
      ...(shipment.deliveredAt ? { happenedAt: shipment.deliveredAt } : {}),
    });
    written += 1;
  }
  await deps.tracking.saveShopifySide(reference, { deliveryRecordedAt: new Date().toISOString() });
  if (ours.length === 0) {
    deps.logger.info({ reference }, 'delivered, but no fulfillment carries its number');
    return 'no-fulfillment';
  }
  return written > 0 ? 'recorded' : 'already-recorded';
}
