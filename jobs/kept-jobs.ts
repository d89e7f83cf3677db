const DAY_S = 24 * 3600;

/**
 * How long the per-order queues (create-shipment, mark-order, the sync's writes) keep finished
 * jobs. A completed job is kept a day, for the board's view of recent work; what it did stays in
 * the order's record (`connector order <id>`). Each costs about 1 KB with its logs, against about
 * 1.4 KB for an order's records over their whole retention (bench/RESULTS.md, Redis footprint),
 * so keeping them a week would add half again per tracked order. Failed jobs stay a month, to be
 * replayed.
 */
export const KEPT_JOBS = {
  removeOnComplete: { age: DAY_S, count: 10_000 },
  removeOnFail: { age: 30 * DAY_S },
  // Bull Board's Error tab shows every failure kept: a retried job would show its reason once
  // per run. The last one is what stands; each run's steps are in its Logs tab.
  stackTraceLimit: 1,
} as const;
