import { defineScheduledJob } from '../job-definition.js';
import { runSyncCycle } from './cycle.js';

/** The provider has no webhooks: this is how Shopify hears what became of each shipment. */
export const syncShipmentsJob = defineScheduledJob({
  queue: 'sync-shipments',
  jobIdPrefix: 'sync',
  retry: { attempts: 5, backoff: { type: 'exponential', delay: 30_000, jitter: 0.2 } },
  callsPartner: true,
  everyMs: (settings) => settings.sync.intervalMs,
  process: (ctx) => async (_payload, job) => {
    // One holder per execution: a re-run (only after a stall) takes the lock over, so a crash
    // does not stop the sync until the lock expires.
    const summary = await runSyncCycle(
      { ...ctx, logger: ctx.logger.child({ module: 'sync', jobId: job.id }) },
      `${job.id}/${job.token ?? ''}`,
      `${job.id}/`,
      // The scheduler's runs only: one added by hand always lists.
      job.repeatJobKey ? job.timestamp + (job.opts.delay ?? 0) : undefined,
    );
    await job.log(
      summary.outcome === 'skipped'
        ? `Skipped: ${summary.reason}.`
        : `Read ${summary.itemsRead} listed shipments in ${summary.listRequests} list requests and ${summary.detailRequests} detail reads; ${summary.changed} changed, ${summary.adopted} adopted, ${summary.shopifyUpdatesQueued} Shopify updates queued.`,
    );
    return summary;
  },
  // The cursor stays, so the next run resumes where this one stopped.
  async onGiveUp(ctx, _payload, reason, { job }) {
    ctx.logger.error({ jobId: job.id, reason }, 'a sync run failed; the next one resumes it');
  },
});
