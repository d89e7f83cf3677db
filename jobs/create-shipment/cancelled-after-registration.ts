import type { Logger } from '../../src/log.js';
import type { Counters } from '../../src/metrics/counters.js';
import type { OrderRecords } from '../../src/records/order-records.js';
import type { MarkOrder } from '../mark-order/payload.js';

export interface CancellationDeps {
  records: OrderRecords;
  counters: Counters;
  markOrder: MarkOrder;
  logger: Logger;
}

/**
 * An order cancelled in Shopify after its shipment was registered. The API has no cancel
 * operation, so staff must ask the provider; this flags the order once (tag and note), logs and
 * counts it, and never fails or retries. Should the API gain a cancel endpoint, it is called here.
 */
export async function handleCancelledAfterRegistration(
  orderId: string,
  deps: CancellationDeps,
): Promise<'flagged' | 'already_flagged'> {
  if (!(await deps.records.flagCancelledAfterRegistration(orderId))) {
    // The mark job has one job id per order, so this only restores one that a crash between
    // the flag and the queueing lost; a queued or finished one absorbs it.
    await deps.markOrder(orderId, 'cancelled_after_registration');
    return 'already_flagged';
  }
  const record = await deps.records.get(orderId);
  deps.logger.warn(
    { orderId, orderNumber: record?.orderNumber },
    'order cancelled after its shipment was registered: ask the provider to cancel it',
  );
  await deps.counters.increment('cancelled_after_registration');
  await deps.markOrder(orderId, 'cancelled_after_registration');
  return 'flagged';
}
