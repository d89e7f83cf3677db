import { z } from 'zod';
import { defineJob } from '../job-definition.js';
import { markOrderJob } from '../mark-order/job.js';
import { retryFailedMarks } from './retry-pass.js';

/** How often the pass runs; each failed mark waits its own growing delay (retry-pass.ts). */
const PASS_EVERY_MS = 5 * 60_000;

/**
 * Scheduled: retries the marks on Shopify orders that failed for good (Shopify down for longer
 * than the mark job's own retries, a revoked token since restored…), with a growing wait per mark,
 * and logs how many there are. Marks Shopify refused outright are counted, not retried.
 */
export const retryFailedMarksJob = defineJob({
  queue: 'retry-failed-marks',
  payload: z.object({}),
  // Scheduled runs get their ids from the scheduler; one added by hand gets one of its own.
  jobId: () => `retry-marks-${Date.now()}`,
  options: () => ({
    attempts: 1,
    removeOnComplete: { count: 200 },
    removeOnFail: { count: 200 },
  }),
  concurrency: 1,
  callsPartner: false,
  schedule: { id: 'retry-failed-marks', everyMs: () => PASS_EVERY_MS },
  process: (ctx) => async (_payload, job) =>
    retryFailedMarks({
      queue: ctx.queueOf(markOrderJob),
      counters: ctx.counters,
      logger: ctx.logger.child({ module: 'retry-failed-marks', jobId: job.id }),
    }),
});
