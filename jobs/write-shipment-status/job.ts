import { defineJob } from '../job-definition.js';
import { SHIPMENT_UPDATE_OPTIONS } from '../shipment-updates/options.js';
import {
  SHIPMENT_UPDATE_QUEUES,
  shipmentUpdatePayload,
  updateJobId,
} from '../shipment-updates/updates.js';
import { writeShipmentStatus } from './write-status.js';

/** The provider's status, its label and the tracking, into the order's metafields. */
export const writeShipmentStatusJob = defineJob({
  queue: SHIPMENT_UPDATE_QUEUES.status,
  payload: shipmentUpdatePayload,
  jobId: (payload) => updateJobId('status', payload),
  options: () => SHIPMENT_UPDATE_OPTIONS,
  concurrency: 2,
  callsPartner: false,
  process:
    (ctx) =>
    async ({ reference }, job) => {
      const logger = ctx.logger.child({ module: 'write-shipment-status', jobId: job.id });
      const outcome = await writeShipmentStatus(reference, { ...ctx, logger });
      await job.log(
        outcome === 'written' ? 'Status written to the order.' : 'No shipment is followed.',
      );
      return { outcome };
    },
});
