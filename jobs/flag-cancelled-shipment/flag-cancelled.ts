import { ORDER_TAGS } from '../../src/domain/order-marks.js';
import type { JobContext } from '../context.js';

export interface FlagCancelledDeps {
  store: Pick<JobContext['store'], 'addOrderTags' | 'appendOrderNote'>;
  tracking: Pick<JobContext['tracking'], 'get' | 'saveShopifySide'>;
}

/** Ship, refund or cancel is the merchant's call; the order is left. Writes are idempotent. */
export async function flagCancelledShipment(reference: string, deps: FlagCancelledDeps) {
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
