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

/** The provider's API cannot cancel, so staff must ask; flags once, never fails or retries. */
export async function handleCancelledAfterRegistration(
  orderId: string,
  deps: CancellationDeps,
): Promise<'flagged' | 'already_flagged'> {
  if (!(await deps.records.flagCancelledAfterRegistration(orderId))) {
    // One mark job id per order: this only restores one a crash lost between flag and queueing.
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
