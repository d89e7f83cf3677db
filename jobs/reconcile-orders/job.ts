import { z } from 'zod';
import { defineJob } from '../job-definition.js';
import { reconcilePass } from './pass.js';

/**
 * Scheduled: pages the orders updated since the last pass and queues the ones a webhook missed.
 * Shopify does not guarantee webhooks, so this is what makes intake complete.
 */
export const reconcileOrdersJob = defineJob({
  queue: 'reconcile-orders',
  payload: z.object({}),
  // Scheduled runs get their ids from the scheduler; one added by hand gets one of its own.
  jobId: () => `reconcile-${Date.now()}`,
  options: () => ({
    attempts: 3,
    backoff: { type: 'exponential', delay: 10_000 },
    removeOnComplete: { count: 200 },
    removeOnFail: { count: 200 },
  }),
  concurrency: 1,
  callsPartner: false,
  schedule: { id: 'reconcile-orders', everyMs: (settings) => settings.intake.pollIntervalMs },
  process: (ctx) => async (_payload, job) => {
    const logger = ctx.logger.child({ module: 'reconcile', jobId: job.id });
    return reconcilePass({ ...ctx, eligibility: ctx.settings.eligibility, logger });
  },
});
