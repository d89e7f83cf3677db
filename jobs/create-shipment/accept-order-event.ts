import {
  type OrderEvent,
  onOrderEvent,
  type RecordedStage,
  stageOf,
} from '../../src/domain/order-lifecycle.js';
import type { QueueContext } from '../context.js';
import { enqueueMarkOrder } from '../mark-order/enqueue.js';
import { handleCancelledAfterRegistration } from './cancelled-after-registration.js';
import { type EnqueueResult, enqueueOrder } from './enqueue.js';

export type OrderEventResult = EnqueueResult | 'flagged_cancelled' | 'already_flagged';

export type OrderEventDeps = Pick<
  QueueContext,
  'queueOf' | 'records' | 'counters' | 'logger' | 'timeline'
>;

/** Eligibility is judged by the worker, on the freshly loaded order. */
export async function acceptOrderEvent(
  event: OrderEvent,
  deps: OrderEventDeps,
  /** If the caller has just read it. */
  record?: RecordedStage | null,
): Promise<OrderEventResult> {
  const [result] = await Promise.all([
    takeEvent(event, deps, record),
    deps.timeline.note(event.orderId, { at: Date.now(), kind: 'event', source: event.source }),
  ]);
  return result;
}

async function takeEvent(
  event: OrderEvent,
  deps: OrderEventDeps,
  record: RecordedStage | null | undefined,
): Promise<OrderEventResult> {
  const stage = stageOf(record === undefined ? await deps.records.get(event.orderId) : record);
  if (onOrderEvent(stage, event.cancelled) === 'flag_cancelled') {
    const flagged = await handleCancelledAfterRegistration(event.orderId, {
      ...deps,
      markOrder: (orderId, kind) => enqueueMarkOrder(deps, orderId, kind),
    });
    return flagged === 'flagged' ? 'flagged_cancelled' : 'already_flagged';
  }
  return enqueueOrder(deps, event.orderId, event.source, event.orderName, stage, {
    checkEdits: !event.noEditShown,
  });
}
