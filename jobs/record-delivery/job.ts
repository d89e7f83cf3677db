import { defineJob } from '../job-definition.js';
import { SHIPMENT_UPDATE_OPTIONS } from '../shipment-updates/options.js';
import {
  SHIPMENT_UPDATE_QUEUES,
  shipmentUpdatePayload,
  updateJobId,
} from '../shipment-updates/updates.js';
import { recordDelivery } from './record-delivery.js';

/** Delivered at the provider: a DELIVERED fulfillment event in Shopify. */
export const recordDeliveryJob = defineJob({
  queue: SHIPMENT_UPDATE_QUEUES.delivery,
  payload: shipmentUpdatePayload,
  jobId: (payload) => updateJobId('delivery', payload),
  options: () => SHIPMENT_UPDATE_OPTIONS,
  concurrency: 2,
  callsPartner: false,
  process:
    (ctx) =>
    async ({ reference }, job) => {
      const logger = ctx.logger.child({ module: 'record-delivery', jobId: job.id });
      const outcome = await recordDelivery(reference, { ...ctx, logger });
      await job.log(
        {
          recorded: 'Delivered event added to the fulfillment.',
          'already-recorded': 'The fulfillment already shows delivered: nothing written.',
          'no-fulfillment':
            'No fulfillment carries the tracking number: nothing to mark delivered.',
          stale: 'The shipment is not delivered (anymore): nothing written.',
        }[outcome],
      );
      return { outcome };
    },
});
