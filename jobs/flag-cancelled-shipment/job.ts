import { defineShipmentUpdateJob } from '../shipment-updates/define-update-job.js';
import { flagCancelledShipment } from './flag-cancelled.js';

export const flagCancelledShipmentJob = defineShipmentUpdateJob({
  update: 'cancelled',
  write: flagCancelledShipment,
  wrote: ['flagged'],
  log: {
    flagged: 'Order tagged and noted for staff.',
    stale: 'The shipment is not cancelled: nothing written.',
  },
});
