import { isRetry } from '../job-definition.js';
import { defineShipmentUpdateJob } from '../shipment-updates/define-update-job.js';
import { reportShipmentProgress } from './report-progress.js';

/** Processing at the provider: the order's fulfillment orders reported in progress. */
export const reportShipmentProgressJob = defineShipmentUpdateJob({
  update: 'progress',
  storePriority: 'follow-up',
  write: (reference, deps, job) => reportShipmentProgress(reference, deps, { retry: isRetry(job) }),
  wrote: ['reported'],
  log: {
    reported: 'Fulfillment orders reported in progress.',
    'nothing-to-report': 'No open fulfillment order of the merchant to report on.',
    stale: 'The shipment is past processing: nothing reported.',
  },
});
