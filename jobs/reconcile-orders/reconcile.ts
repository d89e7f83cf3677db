import type { Config } from '../../config/index.js';
import { precheckEligibility } from '../../src/domain/eligibility.js';
import type { StoreOrderSummary } from '../../src/domain/order.js';
import { carriesRegistrationMarks, hasTag, ORDER_TAGS } from '../../src/domain/order-marks.js';
import type { OrderReader } from '../../src/store/types.js';
import type { QueueContext } from '../context.js';
import { bodyTaken } from '../create-shipment/accept-delivery.js';
import { acceptOrderEvent, type OrderEventDeps } from '../create-shipment/accept-order-event.js';
import { enqueueOrder } from '../create-shipment/enqueue.js';

export interface ReconcileDeps extends OrderEventDeps, Pick<QueueContext, 'redis' | 'prefix'> {
  store: Pick<OrderReader, 'listOrdersUpdatedSince'>;
  eligibility: Config['eligibility'];
  /** The time waiting orders are due by; this machine's clock unless a test drives it. */
  now?: () => Date;
}

/** What a pass did with each order it saw: the counts after `seen` add up to it. */
export interface ReconcileSummary {
  pages: number;
  seen: number;
  queued: number;
  skipped: number;
  flaggedCancelled: number;
  /** Registered already: nothing to do. */
  alreadyRegistered: number;
  /** Its job is waiting or running already. */
  alreadyQueued: number;
  /** Cancelled after registration and flagged for staff already. */
  alreadyFlagged: number;
  /** Waiting for Shopify to release what it holds, and queued to be read again. */
  waitingRechecked: number;
}

/** Waiting orders read again per pass at most; the rest (re-scored later) come next pass. */
export const WAITING_RECHECKS_PER_PASS = 100;

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
    alreadyRegistered: 0,
    alreadyQueued: 0,
    alreadyFlagged: 0,
    waitingRechecked: 0,
  };
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await deps.store.listOrdersUpdatedSince(since, cursor);
    summary.pages++;
    for (const order of page.orders) {
      if (until && Date.parse(order.createdAt) > until.getTime()) continue;
      summary.seen++;
      seen.add(order.id);
      const registered = await deps.records.isRegistered(order.id);
      if (!registered) {
        const eligibility = precheckEligibility(order, deps.eligibility);
        if (!eligibility.eligible && !(await needsWorker(order, deps))) {
          await deps.timeline.note(order.id, { at: Date.now(), kind: 'event', source });
          await deps.records.markSkipped(order.id, eligibility.code, eligibility.reason);
          summary.skipped++;
          continue;
        }
      }
      const result = await acceptOrderEvent(
        {
          orderId: order.id,
          source,
          cancelled: order.cancelledAt !== null,
          orderName: order.name,
          // Its webhook was taken: reconciliation is for what webhooks missed.
          noEditShown: registered && (await bodyTaken(deps, order.id, order.updatedAt)),
        },
        deps,
      );
      if (result === 'queued' || result === 'requeued') summary.queued++;
      else if (result === 'flagged_cancelled') summary.flaggedCancelled++;
      else if (result === 'already_registered') summary.alreadyRegistered++;
      else if (result === 'already_queued') summary.alreadyQueued++;
      else summary.alreadyFlagged++;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);

  // An order waiting on Shopify (a hold, a schedule): Shopify may release it without the
  // order's updated_at moving, so it is read again here, once due, whether listed or not. A look
  // is no sign of the order: it goes on the order's timeline only if it sends the shipment.
  const now = deps.now?.() ?? new Date();
  for (const orderId of await deps.records.dueWaiting(now, WAITING_RECHECKS_PER_PASS)) {
    if (seen.has(orderId)) continue;
    const result = await enqueueOrder(deps, orderId, source);
    if (result === 'queued' || result === 'requeued') summary.waitingRechecked++;
  }
  return summary;
}

/**
 * An order that will not ship may still need the worker: a refused one has error marks to clear,
 * and one whose create answer was lost may have a shipment the provider must be asked about. So
 * may a cancelled one that carries registration marks without a registered record (Redis lost
 * or expired it), unless it was flagged or the worker already found it cancelled: its shipment,
 * if the provider has one, must be cancelled by staff.
 */
async function needsWorker(order: StoreOrderSummary, deps: ReconcileDeps): Promise<boolean> {
  const record = await deps.records.get(order.id);
  if (record?.state === 'failed' || record?.sentAt !== undefined) return true;
  return (
    order.cancelledAt !== null &&
    carriesRegistrationMarks(order) &&
    !hasTag(order, ORDER_TAGS.cancelAtProvider) &&
    record?.skipCode !== 'cancelled'
  );
}
