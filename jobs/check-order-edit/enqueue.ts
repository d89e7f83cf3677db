import type { QueueContext } from '../context.js';
import { orderJobName } from '../job-name.js';
import { checkOrderEditJob } from './job.js';

/** Folds Shopify's burst of orders/updated for one edit, or one write of ours, into one check. */
export const EDIT_CHECK_DELAY_MS = 2_000;

/** One waiting check; a run may predate the event, so one more follows (keepLastIfActive). */
export async function enqueueEditCheck(
  deps: Pick<QueueContext, 'queueOf'>,
  orderId: string,
  orderName?: string,
): Promise<void> {
  const data = checkOrderEditJob.payload.parse({ orderId });
  const name = orderJobName('check for edits', orderId, orderName);
  await deps.queueOf(checkOrderEditJob).add(name, data, {
    jobId: checkOrderEditJob.jobId(data),
    delay: EDIT_CHECK_DELAY_MS,
    deduplication: { id: `check-edit-${orderId}`, keepLastIfActive: true },
  });
}
