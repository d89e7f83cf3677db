import {
  type CancellationDeps,
  handleCancelledAfterRegistration,
} from '../../jobs/create-shipment/cancelled-after-registration.js';
import type { EnqueueResult, Enqueuer } from '../queue/enqueue.js';
import type { OrderRecords } from '../records/order-records.js';

export interface OrderEventDeps extends CancellationDeps {
  records: OrderRecords;
  enqueuer: Enqueuer;
}

export type OrderEventResult = EnqueueResult | 'flagged_cancelled' | 'already_flagged';

/**
 * What any sign of an order (a webhook, a reconciliation page, a backfill) leads to: a cancelled
 * order whose shipment exists is flagged for staff; anything else is queued unless it already is.
 * The worker decides eligibility on the freshly loaded order.
 */
export async function acceptOrderEvent(
  event: { orderId: string; source: string; cancelled: boolean },
  deps: OrderEventDeps,
): Promise<OrderEventResult> {
  if (event.cancelled && (await deps.records.isRegistered(event.orderId))) {
    const flagged = await handleCancelledAfterRegistration(event.orderId, deps);
    return flagged === 'flagged' ? 'flagged_cancelled' : 'already_flagged';
  }
  return deps.enqueuer.order(event.orderId, event.source);
}
