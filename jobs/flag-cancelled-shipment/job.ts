import { defineJob } from '../job-definition.js';
import { SHIPMENT_UPDATE_OPTIONS } from '../shipment-updates/options.js';
import {
  SHIPMENT_UPDATE_QUEUES,
  shipmentUpdatePayload,
  updateJobId,
} from '../shipment-updates/updates.js';
import { flagCancelledShipment } from './flag-cancelled.js';

/** Cancelled at the provider: the order tagged and noted for staff. */
export const flagCancelledShipmentJob = defineJob({
  queue: SHIPMENT_UPDATE_QUEUES.cancelled,
  payload: shipmentUpdatePayload,
  jobId: (payload) => updateJobId('cancelled', payload),
  options: () => SHIPMENT_UPDATE_OPTIONS,
  concurrency: 2,
  callsPartner: false,
  process:
    (ctx) =>
    async ({ reference }, job) => {
      const outcome = await flagCancelledShipment(reference, ctx);
      await job.log(
        outcome === 'flagged'
          ? 'Order tagged and noted for staff.'
          : 'The shipment is not cancelled: nothing written.',
      );
      return { outcome };
    },
});
