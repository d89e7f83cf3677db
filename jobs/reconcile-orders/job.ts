import { defineScheduledJob } from '../job-definition.js';
import { reconcilePass } from './pass.js';

/** Shopify does not guarantee webhooks: this queues the orders they missed. */
export const reconcileOrdersJob = defineScheduledJob({
  queue: 'reconcile-orders',
  jobIdPrefix: 'reconcile',
  retry: { attempts: 3, backoff: { type: 'exponential', delay: 10_000 } },
  callsPartner: false,
  everyMs: (settings) => settings.intake.pollIntervalMs,
  process: (ctx) => async (_payload, job) => {
    const logger = ctx.logger.child({ module: 'reconcile', jobId: job.id });
    return reconcilePass({ ...ctx, eligibility: ctx.settings.eligibility, logger });
  },
});
