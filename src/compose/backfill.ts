import { type ReconcileSummary, reconcileOrders } from '../../jobs/reconcile-orders/reconcile.js';
import type { OrderReader } from '../store/types.js';
import type { SharedParts } from './parts.js';

export { emptyReconcileSummary } from '../../jobs/reconcile-orders/reconcile.js';

/** Without the scheduled pass's watermark or lock. */
export function backfillOrders(
  parts: SharedParts,
  store: Pick<OrderReader, 'listOrdersUpdatedSince'>,
  since: Date,
  until?: Date,
  summary?: ReconcileSummary,
): Promise<ReconcileSummary> {
  return reconcileOrders(
    since,
    'backfill',
    { ...parts, store, eligibility: parts.settings.eligibility },
    until,
    summary,
  );
}

/** Every order seen is counted once, so the parts add up to `seen`. */
export function describeBackfill(summary: ReconcileSummary): string {
  const parts = [
    `${summary.queued} queued`,
    `${summary.skipped} not eligible`,
    `${summary.alreadyRegistered} already registered`,
    `${summary.alreadyQueued} already queued`,
    `${summary.flaggedCancelled} flagged as cancelled after registration`,
  ];
  if (summary.alreadyFlagged > 0) {
    parts.push(`${summary.alreadyFlagged} flagged as cancelled before`);
  }
  return `${summary.seen} orders seen: ${parts.join(', ')}.`;
}
