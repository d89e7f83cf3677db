import type { QueueContext } from '../context.js';
import { orderJobName } from '../job-name.js';
import { checkOrderEditJob } from './job.js';

/**
 * How long a check waits before it reads the order. Shopify sends a burst of orders/updated for
 * one edit (and for each of our own writes); they all fold into the one waiting check.
 */
export const EDIT_CHECK_DELAY_MS = 2_000;

/**
 * Queues a check of a registered order for edits. At most one check per order waits: events
 * while one waits are absorbed by it; an event while one runs (it may have read the order just
 * before the change) leaves one more to run after it (BullMQ deduplication, keepLastIfActive).
 */
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
