import type { OrderMarksSeen } from '../../src/domain/order-marks.js';
import { retryFailedJob } from '../../src/queue/failed-jobs.js';
import type { QueueContext } from '../context.js';
import { orderJobName } from '../job-name.js';
import { markOrderJob } from './job.js';
import { type MarkOrderKind, markOrderPayload } from './payload.js';

type Deps = Pick<QueueContext, 'queueOf'>;

/** A fixed-id mark that failed for good is retried, so its own failed job never swallows it. */
export async function enqueueMarkOrder(
  deps: Deps,
  orderId: string,
  kind: MarkOrderKind,
  seen?: OrderMarksSeen,
): Promise<void> {
  const data = markOrderJob.payload.parse({ orderId, kind, ...(seen ? { seen } : {}) });
  const jobId = markOrderJob.jobId(data);
  if (kind !== 'failed' && (await retryFailedMark(deps, jobId))) return;
  // BullMQ ignores an add whose job id exists: one mark job per order.
  const name = orderJobName(`mark ${kind.replaceAll('_', ' ')}`, orderId);
  await deps.queueOf(markOrderJob).add(name, data, { jobId });
}

export function registeredMarkJobId(orderId: string): string {
  return markOrderJob.jobId({ orderId, kind: 'registered' });
}

/** False when there is none to retry. */
export async function retryFailedMark(deps: Deps, jobId: string): Promise<boolean> {
  const existing = await deps.queueOf(markOrderJob).getJob(jobId);
  if (!existing || (await existing.getState()) !== 'failed') return false;
  // Starts afresh: no schedule count, no noted refusal, and it reads the order again.
  const { seen: _seen, ...payload } = markOrderPayload.parse(existing.data);
  // Removed meanwhile: the caller adds it anew.
  return (await retryFailedJob(existing, payload)) !== 'gone';
}
