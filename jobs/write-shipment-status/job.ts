import { defineShipmentUpdateJob } from '../shipment-updates/define-update-job.js';
import { writeShipmentStatus } from './write-status.js';

export const writeShipmentStatusJob = defineShipmentUpdateJob({
  update: 'status',
  storePriority: 'follow-up',
  write: (reference, deps) => writeShipmentStatus(reference, deps),
  wrote: ['written'],
  log: { written: 'Status written to the order.', unknown: 'No shipment is followed.' },
});
