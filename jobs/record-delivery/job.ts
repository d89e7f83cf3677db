import { defineShipmentUpdateJob } from '../shipment-updates/define-update-job.js';
import { recordDelivery } from './record-delivery.js';

export const recordDeliveryJob = defineShipmentUpdateJob({
  update: 'delivery',
  storePriority: 'follow-up',
  write: (reference, ctx, logger, job) =>
    recordDelivery(
      reference,
      { ...ctx, logger },
      // A run cut off mid-way comes back with more attempts started than made.
      { retry: job.attemptsMade > 0 || (job.attemptsStarted ?? 0) > 1 },
    ),
  wrote: ['recorded'],
  log: {
    recorded: 'Delivered event added to the fulfillment.',
    'already-recorded': 'The fulfillment already shows delivered: nothing written.',
    'no-fulfillment': 'No fulfillment carries the tracking number: nothing to mark delivered.',
    stale: 'The shipment is not delivered (anymore): nothing written.',
  },
});
