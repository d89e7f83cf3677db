import type { Redis } from 'ioredis';
import type { OrderEvent } from '../../src/domain/order-lifecycle.js';
import { hmacStreakKey } from '../../src/records/hmac-failure-streak.js';
import { encodeEntry, pushEntryLua, TIMELINE_KEEP_MS } from '../../src/records/order-timeline.js';
import type { QueueContext } from '../context.js';
import { acceptOrderEvent, type OrderEventResult } from './accept-order-event.js';
import { createShipmentJobName } from './enqueue.js';
import { CREATE_SHIPMENT_QUEUE, createShipmentPayload, orderJobId } from './payload.js';

/** Shopify retries a delivery for 4 hours; remember deliveries a good while longer. */
export const SEEN_TTL_S = 48 * 3600;

/** As records.requestRerun and records.noteEventRun keep them. */
const RERUN_TTL_S = 3600;
const EVENT_RUN_TTL_S = 7 * 24 * 3600;

/**
 * The common cases of a webhook delivery in one step: a delivery seen before (by its id, or by
 * its topic and body under another id: 'repeated'), an order whose job waits or runs (a running
 * one is asked for one more look), an order with no job yet (noted as asked for by an event, then
 * added through BullMQ by the caller). A registered order, or one whose job has finished, takes
 * the general path (acceptOrderEvent): 'general'.
 *
 * The delivery is noted on the order's timeline here (the general path notes it in
 * acceptOrderEvent) and marked seen. For an order still to be added the mark says "queued": it
 * counts as seen only while the job exists, so a delivery whose add failed (answered 503) is
 * taken as new when Shopify sends it again.
 */
const INTAKE_SCRIPT = `
local seen, record, rerun, eventRun, job, active, completed, failed, counters, streak, body, timeline =
  KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10], KEYS[11],
  KEYS[12]
local jobId, seenTtl, rerunTtl, eventRunTtl = ARGV[1], ARGV[2], ARGV[3], ARGV[4]

redis.call('DEL', streak)
local mark = redis.call('GET', seen)
if mark == '1' or (mark == 'q' and redis.call('EXISTS', job) == 1) then
  redis.call('SET', seen, '1', 'EX', seenTtl)
  redis.call('HINCRBY', counters, 'webhooks_duplicate', 1)
  return 'duplicate'
end
local bodyMark = redis.call('GET', body)
if bodyMark == '1' or (bodyMark == 'q' and redis.call('EXISTS', job) == 1) then
  redis.call('HINCRBY', counters, 'webhooks_duplicate', 1)
  return 'repeated'
end
if redis.call('HGET', record, 'state') == 'registered' then return 'general' end
if redis.call('EXISTS', job) == 1 then
  if redis.call('ZSCORE', completed, jobId) or redis.call('ZSCORE', failed, jobId) then
    return 'general'
  end
  if redis.call('LPOS', active, jobId) then redis.call('SET', rerun, '1', 'EX', rerunTtl) end
  ${pushEntryLua('timeline', 'ARGV[5]', 'ARGV[6]')}
  redis.call('SET', seen, '1', 'EX', seenTtl)
  redis.call('SET', body, '1', 'EX', seenTtl)
  redis.call('HINCRBY', counters, 'webhooks_accepted', 1)
  return 'already_queued'
end
redis.call('SET', eventRun, '1', 'EX', eventRunTtl)
redis.call('SET', seen, 'q', 'EX', seenTtl)
redis.call('SET', body, 'q', 'EX', seenTtl)
redis.call('HINCRBY', counters, 'webhooks_accepted', 1)
${pushEntryLua('timeline', 'ARGV[5]', 'ARGV[6]')}
return 'add'
`;

type IntakeRedis = Redis & {
  connectorIntake(
    ...args: (string | number)[]
  ): Promise<'duplicate' | 'repeated' | 'general' | 'already_queued' | 'add'>;
};

export type DeliveryResult = OrderEventResult | 'duplicate' | 'repeated';

/**
 * One webhook delivery about an order: at most once per delivery id (`id`) and per topic and body
 * (`bodyHash`, kept as long as ids are), queued unless it already is.
 * A new order or one already queued costs two round trips to Redis (the script, then BullMQ's
 * add) or one; only registered orders and finished jobs take the general path's several.
 */
export async function acceptDelivery(
  event: OrderEvent,
  delivery: { id: string; bodyHash: string },
  deps: Pick<
    QueueContext,
    'queueOf' | 'records' | 'counters' | 'logger' | 'redis' | 'prefix' | 'timeline'
  >,
): Promise<DeliveryResult> {
  if (!('connectorIntake' in deps.redis)) {
    deps.redis.defineCommand('connectorIntake', { numberOfKeys: 12, lua: INTAKE_SCRIPT });
  }
  const redis = deps.redis as IntakeRedis;
  const queue = deps.queueOf({ queue: CREATE_SHIPMENT_QUEUE });
  const jobId = orderJobId(event.orderId);
  const seenKey = `${deps.prefix}:webhook-seen:${delivery.id}`;
  const bodyKey = `${deps.prefix}:webhook-body:${delivery.bodyHash}`;
  const keys = deps.records.intakeKeys(event.orderId);
  const verdict = await redis.connectorIntake(
    seenKey,
    keys.record,
    keys.rerun,
    keys.eventRun,
    queue.toKey(jobId),
    queue.toKey('active'),
    queue.toKey('completed'),
    queue.toKey('failed'),
    deps.counters.key,
    hmacStreakKey(deps.prefix),
    bodyKey,
    deps.timeline.key(event.orderId),
    jobId,
    SEEN_TTL_S,
    RERUN_TTL_S,
    EVENT_RUN_TTL_S,
    encodeEntry({ at: Date.now(), kind: 'event', source: event.source }),
    TIMELINE_KEEP_MS,
  );
  if (verdict === 'duplicate' || verdict === 'repeated' || verdict === 'already_queued') {
    return verdict;
  }
  if (verdict === 'add') {
    const data = createShipmentPayload.parse({ orderId: event.orderId, source: event.source });
    // If a concurrent delivery added the job meanwhile, BullMQ keeps that one: still one job.
    await queue.add(createShipmentJobName(event.orderId, event.orderName), data, { jobId });
    return 'queued';
  }
  const result = await acceptOrderEvent(event, deps);
  // Marked only after the order is handled: a failed attempt must not hide Shopify's retry.
  await Promise.all([
    redis.set(seenKey, '1', 'EX', SEEN_TTL_S),
    redis.set(bodyKey, '1', 'EX', SEEN_TTL_S),
  ]);
  void deps.counters.increment('webhooks_accepted').catch(() => {});
  return result;
}
