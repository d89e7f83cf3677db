import { checkOrderEditJob } from './check-order-edit/job.js';
import { createShipmentJob } from './create-shipment/job.js';
import { flagCancelledShipmentJob } from './flag-cancelled-shipment/job.js';
import { fulfilShipmentJob } from './fulfil-shipment/job.js';
import type { AnyJobDefinition } from './job-definition.js';
import { markOrderJob } from './mark-order/job.js';
import { reconcileOrdersJob } from './reconcile-orders/job.js';
import { recordDeliveryJob } from './record-delivery/job.js';
import { reportShipmentProgressJob } from './report-shipment-progress/job.js';
import { retryFailedJobsJob } from './retry-failed-jobs/job.js';
import { syncShipmentsJob } from './sync-shipments/job.js';
import { writeShipmentStatusJob } from './write-shipment-status/job.js';

/** In flow order. A new job is its folder under jobs/ and one line here. */
export const JOB_CATALOG = {
  createShipment: createShipmentJob,
  markOrder: markOrderJob,
  reconcileOrders: reconcileOrdersJob,
  checkOrderEdit: checkOrderEditJob,
  retryFailedJobs: retryFailedJobsJob(() => JOBS),
  syncShipments: syncShipmentsJob,
  writeShipmentStatus: writeShipmentStatusJob,
  reportShipmentProgress: reportShipmentProgressJob,
  fulfilShipment: fulfilShipmentJob,
  recordDelivery: recordDeliveryJob,
  flagCancelledShipment: flagCancelledShipmentJob,
} as const satisfies Record<string, AnyJobDefinition>;

export type JobKey = keyof typeof JOB_CATALOG;

export const JOBS: readonly AnyJobDefinition[] = Object.values(JOB_CATALOG);
