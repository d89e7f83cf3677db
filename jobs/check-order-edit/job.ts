import { z } from 'zod';
import { defineJob } from '../job-definition.js';
import { KEPT_JOBS } from '../kept-jobs.js';
import { enqueueMarkOrder } from '../mark-order/enqueue.js';
import { checkOrderEdit } from './check-order-edit.js';

/** The check reads the order from Shopify when it runs. */
const checkOrderEditPayload = z.object({
  orderId: z.string().regex(/^\d{1,20}$/, 'must be a numeric Shopify order id'),
});

/** Tells staff of an edit the shipment needs to know: the provider cannot update a shipment. */
export const checkOrderEditJob = defineJob({
  queue: 'check-order-edit',
  payload: checkOrderEditPayload,
  // A new id per check; enqueue.ts keeps it to one waiting check per order.
  jobId: ({ orderId }) => `check-edit-${orderId}-${Date.now()}`,
  options: () => ({
    attempts: 5,
    backoff: { type: 'exponential', delay: 5_000, jitter: 0.2 },
    removeOnComplete: KEPT_JOBS.removeOnComplete,
    removeOnFail: { age: 7 * 24 * 3600 },
  }),
  concurrency: 2,
  callsPartner: false,
  // Later webhooks that show no change bring no new check, so a failed one runs again on schedule.
  redrive: {
    retries: (job) => checkOrderEditPayload.safeParse(job.data).success,
    firstDelayMs: () => 15 * 60_000,
    maxDelayMs: 24 * 3_600_000,
    maxRetries: 10,
    countField: 'scheduledRetries',
    counter: 'edit_check_retries',
  },
  process:
    (ctx) =>
    async ({ orderId }, job) =>
      checkOrderEdit(orderId, {
        ...ctx,
        logger: ctx.logger.child({ module: 'check-order-edit', jobId: job.id }),
        markOrder: (id, kind) => enqueueMarkOrder(ctx, id, kind),
      }),
});
