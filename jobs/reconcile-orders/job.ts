import { z } from 'zod';
import { defineJob } from '../job-definition.js';
import { reconcilePass } from './pass.js';

/** Shopify does not guarantee webhooks: this queues the orders they missed. */
export const reconcileOrdersJob = defineJob({
  queue: 'reconcile-orders',
  payload: z.object({}),
  // For runs added by hand; the scheduler ids its own.
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
