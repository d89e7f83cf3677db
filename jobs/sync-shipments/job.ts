import { z } from 'zod';
import { defineJob } from '../job-definition.js';
import { runSyncCycle } from './cycle.js';

/**
 * Scheduled: reads the provider's statuses and tracking numbers and queues the Shopify writes
 * they call for (the jobs of jobs/shipment-updates). The provider has no webhooks; this is how
 * Shopify hears of shipped, delivered and cancelled shipments.
 */
export const syncShipmentsJob = defineJob({
  queue: 'sync-shipments',
  payload: z.object({}),
  // Scheduled runs get their ids from the scheduler; one added by hand gets one of its own.
  jobId: () => `sync-${Date.now()}`,
  options: () => ({
    attempts: 5,
    backoff: { type: 'exponential', delay: 30_000, jitter: 0.2 },
    removeOnComplete: { count: 200 },
    removeOnFail: { count: 200 },
  }),
  concurrency: 1,
  callsPartner: true,
  schedule: { id: 'sync-shipments', everyMs: (settings) => settings.sync.intervalMs },
  process: (ctx) => async (_payload, job) => {
    const logger = ctx.logger.child({ module: 'sync', jobId: job.id });
    // One holder per execution: a stalled run and its re-run elsewhere never share the lock. The
    // re-run takes it over (BullMQ re-runs a job only once its earlier execution stalled), so a
    // crash mid-run does not stop the sync until the lock expires.
    const summary = await runSyncCycle(
      { ...ctx, logger },
      `${job.id}/${job.token ?? ''}`,
      `${job.id}/`,
    );
    if (summary.outcome === 'skipped') await job.log(`Skipped: ${summary.reason}.`);
    else {
      await job.log(
        `Read ${summary.itemsRead} listed shipments in ${summary.listRequests} list requests and ${summary.detailRequests} detail reads; ${summary.changed} changed, ${summary.adopted} adopted, ${summary.shopifyUpdatesQueued} Shopify updates queued.`,
      );
    }
    return summary;
  },
  // The cycle released its lock; the cursor stays, so the next run resumes where this one stopped.
  async onGiveUp(ctx, _payload, reason, { job }) {
    ctx.logger.error({ jobId: job.id, reason }, 'a sync run failed; the next one resumes it');
  },
});
