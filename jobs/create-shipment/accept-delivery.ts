import type { OrderEvent, RecordedStage } from '../../src/domain/order-lifecycle.js';
import {
  bodyShowsNoEdit,
  type OrderBodyParts,
  orderBodyView,
} from '../../src/domain/shipment-fingerprint.js';
import { isHandedToCarrier } from '../../src/domain/shipment-progress.js';
import type { QueueContext } from '../context.js';
import { acceptOrderEvent, type OrderEventResult } from './accept-order-event.js';

/** Shopify retries a delivery for 4 hours; remember deliveries a good while longer. */
export const SEEN_TTL_S = 48 * 3600;

/**
 * How long the view of an order's last body is kept: a registered order's later writes (its
 * fulfilment, the delivered event) come days apart; without the view, one more check reads it.
 */
export const BODY_VIEW_TTL_S = 14 * 24 * 3600;

/** The mark of a delivery whose order was handled. */
const HANDLED = '1';

export type DeliveryResult = OrderEventResult | 'duplicate' | 'repeated';

/**
 * One webhook delivery about an order: at most once per delivery id (`id`) and per topic and body
 * (`bodyHash`, kept as long as ids are), then taken as any other order event (acceptOrderEvent).
 */
export async function acceptDelivery(
  event: OrderEvent,
  delivery: { id: string; bodyHash: string; order?: OrderBodyParts },
  deps: Pick<
    QueueContext,
    | 'queueOf'
    | 'records'
    | 'counters'
    | 'logger'
    | 'redis'
    | 'prefix'
    | 'timeline'
    | 'settings'
    | 'tracking'
  >,
): Promise<DeliveryResult> {
  const seenKey = `${deps.prefix}:webhook-seen:${delivery.id}`;
  const bodyKey = `${deps.prefix}:webhook-body:${delivery.bodyHash}`;
  const viewKey = bodyViewKey(deps.prefix, event.orderId);
  const [seen, [bodySeen, kept], record] = await Promise.all([
    deps.redis.getex(seenKey, 'EX', SEEN_TTL_S),
    deps.redis.mget(bodyKey, viewKey),
    deps.records.get(event.orderId),
  ]);
  // Only HANDLED counts: a mark 'q' (a job still to be added, whose add may have failed) is
  // taken as new, and the enqueue rules make no second job if it was added.
  const duplicate = seen === HANDLED;
  if (duplicate || bodySeen === HANDLED) {
    void deps.counters.increment('webhooks_duplicate').catch(() => {});
    return duplicate ? 'duplicate' : 'repeated';
  }
  const view = delivery.order && orderBodyView(delivery.order, deps.settings.shipment.documentTag);
  const viewBefore = kept ? kept.split(' ')[0]! : null;
  const noEditShown =
    view !== undefined && (await showsNoEdit(event.orderId, viewBefore, view, record, deps));
  const result = await acceptOrderEvent({ ...event, noEditShown }, deps, record);
  // Marked once the order is handled, so a failed attempt does not hide Shopify's retry. Not
  // waited for: the marks only spare a repeat its work; taken again, it still makes no second job.
  void Promise.all([
    deps.redis.set(seenKey, HANDLED, 'EX', SEEN_TTL_S),
    deps.redis.set(bodyKey, HANDLED, 'EX', SEEN_TTL_S),
    view && deps.redis.set(viewKey, `${view} ${takenAtMs(delivery.order)}`, 'EX', BODY_VIEW_TTL_S),
    deps.counters.increment('webhooks_accepted'),
  ]).catch(() => {});
  return result;
}

/** The view of the order's last webhook body taken, and that body's updated_at (ms, or blank). */
function bodyViewKey(prefix: string, orderId: string): string {
  return `${prefix}:order-body-view:${orderId}`;
}

function takenAtMs(order: OrderBodyParts | undefined): string {
  const ms = Date.parse(order?.updatedAt ?? '');
  return Number.isFinite(ms) ? String(ms) : '';
}

/**
 * Whether a webhook body of the order as it was at `updatedAt`, or later, was taken: then an
 * edit check for it was queued, or not needed (what reconciliation asks of a registered order).
 */
export async function bodyTaken(
  deps: Pick<QueueContext, 'redis' | 'prefix'>,
  orderId: string,
  updatedAt: string,
): Promise<boolean> {
  const kept = await deps.redis.get(bodyViewKey(deps.prefix, orderId));
  const taken = kept?.split(' ')[1];
  return Boolean(taken) && Number(taken) >= Date.parse(updatedAt);
}

/**
 * Whether the body shows the order as the order's previous body did (the view of a body is kept
 * only once it was handled: the send read the order after it, or a check did), in what an edit
 * check of a registered order would compare.
 */
async function showsNoEdit(
  orderId: string,
  viewBefore: string | null,
  view: string,
  record: RecordedStage | null,
  deps: Pick<QueueContext, 'tracking'>,
): Promise<boolean> {
  if (bodyShowsNoEdit(viewBefore, view, { receiverOnly: false })) return true;
  if (!bodyShowsNoEdit(viewBefore, view, { receiverOnly: true })) return false;
  if (record?.state !== 'registered') return false;
  return isHandedToCarrier((await deps.tracking.get(orderId))?.stage ?? 'pending');
}
