const DAY_S = 24 * 3600;

/**
 * Completed jobs stay a day, for the board's view of recent work: what they did stays in the
 * order's record, and each weighs about as much as that record, so a longer stay grows Redis
 * markedly. Failed jobs stay a month, to be replayed.
 */
export const KEPT_JOBS = {
  removeOnComplete: { age: DAY_S, count: 10_000 },
  removeOnFail: { age: 30 * DAY_S },
  // Bull Board's Error tab shows every failure kept, so a retried job would repeat its reason;
  // each run's steps are in its Logs tab.
  stackTraceLimit: 1,
} as const;
