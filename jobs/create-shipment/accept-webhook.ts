import type { OrderEvent } from '../../src/domain/order-lifecycle.js';
import {
  bodyShowsNoEdit,
  type OrderBodyParts,
  orderBodyView,
} from '../../src/domain/shipment-fingerprint.js';
import { isHandedToCarrier } from '../../src/domain/shipment-progress.js';
import type { QueueContext } from '../context.js';
import {
  acceptOrderEvent,
  type OrderEventDeps,
  type OrderEventResult,
} from './accept-order-event.js';

/** Well beyond Shopify's 4 hours of delivery retries. */
export const SEEN_TTL_S = 48 * 3600;

/** A registered order's later writes come days apart; a lost view costs one more check. */
export const BODY_VIEW_TTL_S = 14 * 24 * 3600;

const HANDLED = '1';

/** At most once per delivery id and per body hash, then taken as any other order event. */
export async function acceptWebhook(
  event: OrderEvent,
  delivery: { id: string; bodyHash: string; order?: OrderBodyParts },
  deps: OrderEventDeps & Pick<QueueContext, 'redis' | 'prefix' | 'settings' | 'tracking'>,
): Promise<OrderEventResult | 'duplicate' | 'repeated'> {
  const seenKey = `${deps.prefix}:webhook-seen:${delivery.id}`;
  const bodyKey = `${deps.prefix}:webhook-body:${delivery.bodyHash}`;
  const viewKey = bodyViewKey(deps.prefix, event.orderId);
  const [seen, [bodySeen, kept], record] = await Promise.all([
    deps.redis.getex(seenKey, 'EX', SEEN_TTL_S),
    deps.redis.mget(bodyKey, viewKey),
    deps.records.get(event.orderId),
  ]);
  // Only HANDLED counts: a 'q' mark's add may have failed; the enqueue rules make no second job.
  const duplicate = seen === HANDLED;
  if (duplicate || bodySeen === HANDLED) {
    void deps.counters.increment('webhooks_duplicate').catch(() => {});
    return duplicate ? 'duplicate' : 'repeated';
  }
  const view = delivery.order && orderBodyView(delivery.order, deps.settings.shipment.documentTag);
  const viewBefore = kept ? kept.split(' ')[0]! : null;
  // Same as the previous handled body in what an edit check would compare; after handover, only
  // the receiver counts.
  const noEditShown =
    view !== undefined &&
    (bodyShowsNoEdit(viewBefore, view, { receiverOnly: false }) ||
      (bodyShowsNoEdit(viewBefore, view, { receiverOnly: true }) &&
        record?.state === 'registered' &&
        isHandedToCarrier((await deps.tracking.get(event.orderId))?.stage ?? 'pending')));
  const result = await acceptOrderEvent({ ...event, noEditShown }, deps, record);
  // Marked once handled so a failed attempt does not hide Shopify's retry. Not awaited: harmless.
  void Promise.all([
    deps.redis.set(seenKey, HANDLED, 'EX', SEEN_TTL_S),
    deps.redis.set(bodyKey, HANDLED, 'EX', SEEN_TTL_S),
    view && deps.redis.set(viewKey, `${view} ${takenAtMs(delivery.order)}`, 'EX', BODY_VIEW_TTL_S),
    deps.counters.increment('webhooks_accepted'),
  ]).catch(() => {});
  return result;
}

/** Holds the last body's view and its updated_at (ms, or blank). */
function bodyViewKey(prefix: string, orderId: string): string {
  return `${prefix}:order-body-view:${orderId}`;
}

function takenAtMs(order: OrderBodyParts | undefined): string {
  const ms = Date.parse(order?.updatedAt ?? '');
  return Number.isFinite(ms) ? String(ms) : '';
}

/** A body as of `updatedAt` or later was taken, so its edit check was queued or not needed. */
export async function bodyTaken(
  deps: Pick<QueueContext, 'redis' | 'prefix'>,
  orderId: string,
  updatedAt: string,
): Promise<boolean> {
  const kept = await deps.redis.get(bodyViewKey(deps.prefix, orderId));
  const taken = kept?.split(' ')[1];
  return Boolean(taken) && Number(taken) >= Date.parse(updatedAt);
}
