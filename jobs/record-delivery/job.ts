import { isRetry } from '../job-definition.js';
import { defineShipmentUpdateJob } from '../shipment-updates/define-update-job.js';
import { recordDelivery } from './record-delivery.js';

export const recordDeliveryJob = defineShipmentUpdateJob({
  update: 'delivery',
  storePriority: 'follow-up',
  write: (reference, deps, job) => recordDelivery(reference, deps, { retry: isRetry(job) }),
  wrote: ['recorded'],
  log: {
    recorded: 'Delivered event added to the fulfillment.',
    'already-recorded': 'The fulfillment already shows delivered: nothing written.',
    'no-fulfillment': 'No fulfillment carries the tracking number: nothing to mark delivered.',
    stale: 'The shipment is not delivered (anymore): nothing written.',
  },
});
