import { ORDER_TAGS } from '../../src/domain/order-marks.js';
import type { ShipmentTracking } from '../../src/records/shipment-tracking.js';
import type { OrderMarks } from '../../src/store/types.js';

export interface FlagCancelledDeps {
  store: Pick<OrderMarks, 'addOrderTags' | 'appendOrderNote'>;
  tracking: Pick<ShipmentTracking, 'get' | 'saveShopifySide'>;
}

/** Ship, refund or cancel is the merchant's call; the order is left. Writes are idempotent. */
export async function flagCancelledShipment(
  reference: string,
  deps: FlagCancelledDeps,
): Promise<'flagged' | 'stale'> {
  const shipment = await deps.tracking.get(reference);
  if (shipment?.stage !== 'cancelled') return 'stale';
  await deps.store.addOrderTags(reference, [ORDER_TAGS.cancelledAtProvider]);
  await deps.store.appendOrderNote(
    reference,
    `The provider cancelled shipment ${shipment.orderNumber} (${shipment.updatedAt}). The order was not cancelled in Shopify: decide how to ship, refund or cancel it.`,
  );
  await deps.tracking.saveShopifySide(reference, { cancelFlaggedAt: new Date().toISOString() });
  return 'flagged';
}
