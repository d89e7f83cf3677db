import type { DefaultJobOptions } from 'bullmq';

const DAY_S = 24 * 3600;

/**
 * Retries and retention of every Shopify write of the sync: a Shopify outage of a few hours is
 * ridden out; completed jobs stay a week for the board, failed ones a month to be replayed.
 */
export const SHIPMENT_UPDATE_OPTIONS: DefaultJobOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 5_000, jitter: 0.2 },
  removeOnComplete: { age: 7 * DAY_S, count: 50_000 },
  removeOnFail: { age: 30 * DAY_S },
};
