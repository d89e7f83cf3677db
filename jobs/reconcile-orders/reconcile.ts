import { precheckEligibility } from '../../src/domain/eligibility.js';
import type { StoreOrderSummary } from '../../src/domain/order.js';
import { carriesRegistrationMarks, hasTag, ORDER_TAGS } from '../../src/domain/order-marks.js';
import type { JobContext, JobSettings, QueueContext } from '../context.js';
import { acceptOrderEvent, type OrderEventDeps } from '../create-shipment/accept-order-event.js';
import { bodyTaken } from '../create-shipment/accept-webhook.js';
import { enqueueOrder } from '../create-shipment/enqueue.js';

export interface ReconcileDeps extends OrderEventDeps, Pick<QueueContext, 'redis' | 'prefix'> {
  store: Pick<JobContext['store'], 'listOrdersUpdatedSince'>;
  eligibility: JobSettings['eligibility'];
  /** Waiting orders are due by it; tests drive it. */
  now?: () => Date;
}

export type ReconcileSummary = ReturnType<typeof emptyReconcileSummary>;

/** The counts after `seen` add up to it. */
export function emptyReconcileSummary() {
  return {
    pages: 0,
    seen: 0,
    queued: 0,
    skipped: 0,
    flaggedCancelled: 0,
    alreadyRegistered: 0,
    alreadyQueued: 0,
    alreadyFlagged: 0,
    /** Waiting for Shopify to release what it holds; queued again. */
    waitingRechecked: 0,
  };
}

/** The rest come next pass. */
export const WAITING_RECHECKS_PER_PASS = 100;

/** Ineligible orders are skipped, not queued, so a quiet store costs no jobs. */
export async function reconcileOrders(
  since: Date,
  source: string,
  deps: ReconcileDeps,
  until?: Date,
  /** Filled as orders are seen, so a caller whose pass fails still knows what it did. */
  summary = emptyReconcileSummary(),
): Promise<ReconcileSummary> {
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

  // Shopify may release a held order without moving updated_at, so it is read again once due. A
  // look is no sign of the order: not on its timeline unless it sends the shipment.
  const now = deps.now?.() ?? new Date();
  for (const orderId of await deps.records.dueWaiting(now, WAITING_RECHECKS_PER_PASS)) {
    if (seen.has(orderId)) continue;
    const result = await enqueueOrder(deps, orderId, source);
    if (result === 'queued' || result === 'requeued') summary.waitingRechecked++;
  }
  return summary;
}

/** Refused (marks to clear), a lost create answer, or cancelled with marks but no record. */
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
