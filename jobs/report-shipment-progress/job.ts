import { defineShipmentUpdateJob } from '../shipment-updates/define-update-job.js';
import { reportShipmentProgress } from './report-progress.js';

/** Processing at the provider: the order's fulfillment orders reported in progress. */
export const reportShipmentProgressJob = defineShipmentUpdateJob({
  update: 'progress',
  storePriority: 'follow-up',
  write: (reference, ctx, logger, job) =>
    reportShipmentProgress(
      reference,
      { ...ctx, logger },
      // A run cut off mid-way comes back with more attempts started than made.
      { retry: job.attemptsMade > 0 || (job.attemptsStarted ?? 0) > 1 },
    ),
  wrote: ['reported'],
  log: {
    reported: 'Fulfillment orders reported in progress.',
    'nothing-to-report': 'No open fulfillment order of the merchant to report on.',
    stale: 'The shipment is past processing: nothing reported.',
  },
});
