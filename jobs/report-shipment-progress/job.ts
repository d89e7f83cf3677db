import { defineJob } from '../job-definition.js';
import { SHIPMENT_UPDATE_OPTIONS } from '../shipment-updates/options.js';
import {
  SHIPMENT_UPDATE_QUEUES,
  shipmentUpdatePayload,
  updateJobId,
} from '../shipment-updates/updates.js';
import { reportShipmentProgress } from './report-progress.js';

/** Processing at the provider: the order's fulfillment orders reported in progress. */
export const reportShipmentProgressJob = defineJob({
  queue: SHIPMENT_UPDATE_QUEUES.progress,
  payload: shipmentUpdatePayload,
  jobId: (payload) => updateJobId('progress', payload),
  options: () => SHIPMENT_UPDATE_OPTIONS,
  concurrency: 2,
  callsPartner: false,
  process:
    (ctx) =>
    async ({ reference }, job) => {
      const logger = ctx.logger.child({ module: 'report-shipment-progress', jobId: job.id });
      const outcome = await reportShipmentProgress(reference, { ...ctx, logger });
      await job.log(
        {
          reported: 'Fulfillment orders reported in progress.',
          'nothing-to-report': 'No open fulfillment order of the merchant to report on.',
          stale: 'The shipment is past processing: nothing reported.',
        }[outcome],
      );
      return { outcome };
    },
});
