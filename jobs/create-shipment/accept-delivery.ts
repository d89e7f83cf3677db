import type { OrderEvent } from '../../src/domain/order-lifecycle.js';
import type { QueueContext } from '../context.js';
import { acceptOrderEvent, type OrderEventResult } from './accept-order-event.js';

/** Shopify retries a delivery for 4 hours; remember deliveries a good while longer. */
export const SEEN_TTL_S = 48 * 3600;

/** The mark of a delivery whose order was handled. */
const HANDLED = '1';

export type DeliveryResult = OrderEventResult | 'duplicate' | 'repeated';

/**
 * One webhook delivery about an order: at most once per delivery id (`id`) and per topic and body
 * (`bodyHash`, kept as long as ids are), then taken as any other order event (acceptOrderEvent).
 */
export async function acceptDelivery(
  event: OrderEvent,
  delivery: { id: string; bodyHash: string },
  deps: Pick<
    QueueContext,
    'queueOf' | 'records' | 'counters' | 'logger' | 'redis' | 'prefix' | 'timeline'
  >,
): Promise<DeliveryResult> {
  const seenKey = `${deps.prefix}:webhook-seen:${delivery.id}`;
  const bodyKey = `${deps.prefix}:webhook-body:${delivery.bodyHash}`;
  const [seen, bodySeen, record] = await Promise.all([
    deps.redis.getex(seenKey, 'EX', SEEN_TTL_S),
    deps.redis.get(bodyKey),
    deps.records.get(event.orderId),
  ]);
  // Only HANDLED counts: a mark 'q' (a job still to be added, whose add may have failed) is
  // taken as new, and the enqueue rules make no second job if it was added.
  const duplicate = seen === HANDLED;
  if (duplicate || bodySeen === HANDLED) {
    void deps.counters.increment('webhooks_duplicate').catch(() => {});
    return duplicate ? 'duplicate' : 'repeated';
  }
  const result = await acceptOrderEvent(event, deps, record);
  // Marked once the order is handled, so a failed attempt does not hide Shopify's retry. Not
  // waited for: the marks only spare a repeat its work; taken again, it still makes no second job.
  void Promise.all([
    deps.redis.set(seenKey, HANDLED, 'EX', SEEN_TTL_S),
    deps.redis.set(bodyKey, HANDLED, 'EX', SEEN_TTL_S),
    deps.counters.increment('webhooks_accepted'),
  ]).catch(() => {});
  return result;
}
