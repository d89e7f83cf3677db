import { defineShipmentUpdateJob } from '../shipment-updates/define-update-job.js';
import { writeShipmentStatus } from './write-status.js';

export const writeShipmentStatusJob = defineShipmentUpdateJob({
  update: 'status',
  storePriority: 'follow-up',
  write: (reference, ctx, logger) => writeShipmentStatus(reference, { ...ctx, logger }),
  wrote: ['written'],
  log: { written: 'Status written to the order.', unknown: 'No shipment is followed.' },
});
