import type { OrderMarksSeen } from '../../src/domain/order-marks.js';
import { retryFailedJob } from '../../src/queue/failed-jobs.js';
import type { QueueContext } from '../context.js';
import { orderJobName } from '../job-name.js';
import { markOrderJob } from './job.js';
import { type MarkOrderKind, markOrderPayload } from './payload.js';

type Deps = Pick<QueueContext, 'queueOf'>;

/**
 * Registration and cancellation mark once per order (a fixed job id); one of theirs that failed
 * for good is retried instead, so it is never swallowed by its own failed job.
 */
export async function enqueueMarkOrder(
  deps: Deps,
  orderId: string,
  kind: MarkOrderKind,
  seen?: OrderMarksSeen,
): Promise<void> {
  const data = markOrderJob.payload.parse({ orderId, kind, ...(seen ? { seen } : {}) });
  const jobId = markOrderJob.jobId(data);
  if (kind !== 'failed' && (await retryFailedMark(deps, jobId))) return;
  // If the job exists in any other state, BullMQ ignores this add: one mark job per order.
  const name = orderJobName(`mark ${kind.replaceAll('_', ' ')}`, orderId);
  await deps.queueOf(markOrderJob).add(name, data, { jobId });
}

export function registeredMarkJobId(orderId: string): string {
  return markOrderJob.jobId({ orderId, kind: 'registered' });
}

/** False when there is none to retry. */
export async function retryFailedMark(deps: Deps, jobId: string): Promise<boolean> {
  const queue = deps.queueOf(markOrderJob);
  const existing = await queue.getJob(jobId);
  if (!existing || (await existing.getState()) !== 'failed') return false;
  // A retry from outside the schedule starts afresh: the schedule's count and a noted Shopify
  // refusal no longer hold it back, and it reads the order afresh.
  const { seen: _seen, ...payload } = markOrderPayload.parse(existing.data);
  // Removed meanwhile: the caller adds it anew.
  return (await retryFailedJob(existing, payload)) !== 'gone';
}
