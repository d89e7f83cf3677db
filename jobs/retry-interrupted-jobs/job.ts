import { z } from 'zod';
import { checkOrderEditJob } from '../check-order-edit/job.js';
import { createShipmentJob } from '../create-shipment/job.js';
import { flagCancelledShipmentJob } from '../flag-cancelled-shipment/job.js';
import { fulfilShipmentJob } from '../fulfil-shipment/job.js';
import { defineJob } from '../job-definition.js';
import { recordDeliveryJob } from '../record-delivery/job.js';
import { reportShipmentProgressJob } from '../report-shipment-progress/job.js';
import { writeShipmentStatusJob } from '../write-shipment-status/job.js';
import { interruptedRetryLimits, retryInterruptedJobs } from './retry-pass.js';

/**
 * The jobs whose interrupted runs this schedule retries: every job of the catalog but the
 * scheduled ones (BullMQ never fails a scheduler's job for stalling, and the next run comes anyway)
 * and `mark-order`, whose failures the retry-failed-marks schedule retries, interruptions included.
 */
export const RETRIED_WHEN_INTERRUPTED = [
  createShipmentJob,
  checkOrderEditJob,
  writeShipmentStatusJob,
  reportShipmentProgressJob,
  fulfilShipmentJob,
  recordDeliveryJob,
  flagCancelledShipmentJob,
] as const;

/** How often the pass runs at most; each job waits its own growing delay (retry-pass.ts). */
const PASS_EVERY_MS = 60_000;

/**
 * Scheduled: runs again the jobs BullMQ failed because their worker was cut off in the middle of
 * them too often (crashes, kills, deploys that could not wait), after a growing wait, three times
 * at most; and logs how many there are.
 */
export const retryInterruptedJobsJob = defineJob({
  queue: 'retry-interrupted-jobs',
  payload: z.object({}),
  // Scheduled runs get their ids from the scheduler; one added by hand gets one of its own.
  jobId: () => `retry-interrupted-${Date.now()}`,
  options: () => ({
    attempts: 1,
    removeOnComplete: { count: 200 },
    removeOnFail: { count: 200 },
  }),
  concurrency: 1,
  callsPartner: false,
  schedule: {
    id: 'retry-interrupted-jobs',
    // As often as the first wait when that is shorter, so a job runs again close to its time.
    everyMs: (settings) => Math.min(PASS_EVERY_MS, settings.interruptedJobs.firstRetryDelayMs),
  },
  process: (ctx) => async (_payload, job) =>
    retryInterruptedJobs({
      queues: RETRIED_WHEN_INTERRUPTED.map((definition) => ctx.queueOf(definition)),
      counters: ctx.counters,
      logger: ctx.logger.child({ module: 'retry-interrupted-jobs', jobId: job.id }),
      limits: interruptedRetryLimits(ctx.settings.interruptedJobs.firstRetryDelayMs),
    }),
});
