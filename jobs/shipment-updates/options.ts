import type { DefaultJobOptions } from 'bullmq';
import { KEPT_JOBS } from '../kept-jobs.js';

/** A Shopify outage of a few hours is ridden out. */
export const SHIPMENT_UPDATE_OPTIONS: DefaultJobOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 5_000, jitter: 0.2 },
  ...KEPT_JOBS,
};
