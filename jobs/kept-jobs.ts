const DAY_S = 24 * 3600;

/** A day for completed jobs (each weighs as much as its order's record); a month for failed. */
export const KEPT_JOBS = {
  removeOnComplete: { age: DAY_S, count: 10_000 },
  removeOnFail: { age: 30 * DAY_S },
  // Bull Board's Error tab shows every failure kept; each run's steps are in its Logs tab.
  stackTraceLimit: 1,
} as const;
