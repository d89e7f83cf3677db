import type { DefaultJobOptions } from 'bullmq';
import { KEPT_JOBS } from '../kept-jobs.js';

/**
 * Retries and retention of every Shopify write of the sync: a Shopify outage of a few hours is
 * ridden out; finished jobs are kept as every per-order queue keeps them (jobs/kept-jobs.ts).
 */
export const SHIPMENT_UPDATE_OPTIONS: DefaultJobOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 5_000, jitter: 0.2 },
  ...KEPT_JOBS,
};
