const DAY_S = 24 * 3600;

/** A day for completed jobs (each weighs as much as its order's record); a month for failed. */
export const KEPT_JOBS = {
  removeOnComplete: { age: DAY_S, count: 10_000 },
  removeOnFail: { age: 30 * DAY_S },
  // Bull Board's Error tab shows every failure kept; each run's steps are in its Logs tab.
  stackTraceLimit: 1,
} as const;

/** For jobs that only write to Shopify: an outage of a few hours is ridden out. */
export const SHOPIFY_WRITE_JOBS = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 5_000, jitter: 0.2 },
  ...KEPT_JOBS,
} as const;
