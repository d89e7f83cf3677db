import type { Config } from '../../config/index.js';
import { precheckEligibility } from '../../src/domain/eligibility.js';
import type { OrderReader } from '../../src/store/types.js';
import { acceptOrderEvent, type OrderEventDeps } from '../create-shipment/accept-order-event.js';

export interface ReconcileDeps extends OrderEventDeps {
  store: Pick<OrderReader, 'listOrdersUpdatedSince'>;
  eligibility: Config['eligibility'];
}

export interface ReconcileSummary {
  pages: number;
  seen: number;
  queued: number;
  skipped: number;
  flaggedCancelled: number;
}

/**
 * Pages every order updated since `since` and does for each what its webhook would have done.
 * Orders that are not eligible now are recorded as skipped (with the reason) but not queued, so
 * a quiet store costs no jobs; the webhook or a later pass queues them once they qualify.
 * The listing carries no line items (see precheckEligibility): the create-shipment worker reads
 * each queued order whole and checks it again before registering.
 */
export async function reconcileOrders(
  since: Date,
  source: string,
  deps: ReconcileDeps,
  until?: Date,
): Promise<ReconcileSummary> {
  const summary: ReconcileSummary = {
    pages: 0,
    seen: 0,
    queued: 0,
    skipped: 0,
    flaggedCancelled: 0,
  };
  let cursor: string | undefined;
  do {
    const page = await deps.store.listOrdersUpdatedSince(since, cursor);
    summary.pages++;
    for (const order of page.orders) {
      if (until && Date.parse(order.createdAt) > until.getTime()) continue;
      summary.seen++;
      const registered = await deps.records.isRegistered(order.id);
      if (!registered) {
        const eligibility = precheckEligibility(order, deps.eligibility);
        if (!eligibility.eligible && !(await needsWorker(order.id, deps))) {
          await deps.records.markSkipped(order.id, eligibility.code, eligibility.reason);
          summary.skipped++;
          continue;
        }
      }
      const result = await acceptOrderEvent(
        { orderId: order.id, source, cancelled: order.cancelledAt !== null },
        deps,
      );
      if (result === 'queued' || result === 'requeued') summary.queued++;
      if (result === 'flagged_cancelled') summary.flaggedCancelled++;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return summary;
}

/**
 * An order that will not ship may still need the worker: a refused one has error marks to clear,
 * and one whose create answer was lost may have a shipment the provider must be asked about.
 */
async function needsWorker(orderId: string, deps: ReconcileDeps): Promise<boolean> {
  const record = await deps.records.get(orderId);
  return record?.state === 'failed' || record?.sentAt !== undefined;
}
