import type { QueueContext } from '../context.js';
import type { MarkOrder } from '../mark-order/payload.js';

/** The provider's API cannot cancel, so staff must ask; flags once, never fails or retries. */
export async function handleCancelledAfterRegistration(
  orderId: string,
  deps: Pick<QueueContext, 'records' | 'counters' | 'logger'> & { markOrder: MarkOrder },
): Promise<'flagged' | 'already_flagged'> {
  const flagged = await deps.records.flagCancelledAfterRegistration(orderId);
  if (flagged) {
    const record = await deps.records.get(orderId);
    deps.logger.warn(
      { orderId, orderNumber: record?.orderNumber },
      'order cancelled after its shipment was registered: ask the provider to cancel it',
    );
    await deps.counters.increment('cancelled_after_registration');
  }
  // One mark job id per order: already flagged, this only restores one a crash lost before it.
  await deps.markOrder(orderId, 'cancelled_after_registration');
  return flagged ? 'flagged' : 'already_flagged';
}
