import { StoreNotFoundError, StoreUserError } from '../../src/store/errors.js';
import { defineJob } from '../job-definition.js';
import { SHOPIFY_WRITE_JOBS } from '../kept-jobs.js';
import { markOrderPayload } from './payload.js';
import { writeOrderMarks } from './write-marks.js';

/** Apart from registration, so a Shopify hiccup never posts to the provider again. */
export const markOrderJob = defineJob({
  queue: 'mark-order',
  payload: markOrderPayload,
  // A failure or an edit gets a fresh id each time, so each reason or edit is written.
  jobId: ({ orderId, kind }) =>
    kind === 'failed' || kind === 'order_edited'
      ? `${kind.replaceAll('_', '-')}-${orderId}-${Date.now()}`
      : `${kind.replaceAll('_', '-')}-${orderId}`,
  options: () => ({ ...SHOPIFY_WRITE_JOBS }),
  concurrency: 2,
  callsPartner: false,
  // Outlasts a Shopify outage or a revoked token; a write Shopify refused would fail again.
  redrive: {
    retries: (job) =>
      job.data?.refusedByShopify !== true && markOrderPayload.safeParse(job.data).success,
    firstDelayMs: () => 15 * 60_000,
    maxDelayMs: 24 * 3_600_000,
    maxRetries: 10,
    countField: 'scheduledRetries',
    counter: 'order_mark_retries',
  },
  process:
    (ctx) =>
    async ({ orderId, kind, seen }, job) => {
      const logger = ctx.logger.child({ module: 'mark-order', jobId: job.id });
      const outcome = await writeOrderMarks(orderId, kind, { ...ctx, logger }, seen);
      if (outcome === 'written') {
        const write = `order marks: ${kind.replaceAll('_', ' ')}`;
        await ctx.timeline.note(orderId, { at: Date.now(), kind: 'shopify-write', write });
      }
      return { outcome };
    },
  async onGiveUp(ctx, { orderId, kind }, reason, { error, job }) {
    // Fails the same way until someone changes something, so it is not retried on schedule.
    const refusedByShopify = error instanceof StoreUserError || error instanceof StoreNotFoundError;
    // What the first run was handed is stale for any retry. `refusedByShopify` stays in the data
    // for the board; the processor's payload parse drops it.
    const { seen: _seen, ...data } = job.data;
    await job.updateData({ ...data, refusedByShopify });
    await ctx.counters.increment('order_marks_failed');
    if (refusedByShopify) await ctx.counters.increment('order_marks_refused');
    ctx.logger.error(
      { orderId, kind, jobId: job.id, reason },
      refusedByShopify
        ? 'Shopify refused a mark on the order: not retried on schedule; fix the cause, then replay the job'
        : 'a mark on the order failed for good: the retry-failed-jobs schedule retries it',
    );
  },
});
