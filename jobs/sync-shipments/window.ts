const DAY_MS = 24 * 3600_000;

/** For a time on this clock: covers its difference with the provider's. */
export const SYNC_OVERLAP_MS = 15 * 60_000;

/** For a time on the provider's clock: created_after rounding, and a listing behind its writes. */
export const PROVIDER_TIME_MARGIN_MS = 60_000;

/**
 * The older of the oldest open shipment and the last cycle's reach, within the lookback. The oldest
 * open creation is on the provider's clock or earlier: only the provider's margin applies.
 */
export function windowStartMs(input: {
  nowMs: number;
  lookbackDays: number;
  oldestOpenCreatedAtMs: number | undefined;
  lastCycle: { startedAtMs?: number; listedUntilMs?: number };
}): number {
  const floor = input.nowMs - input.lookbackDays * DAY_MS;
  const { startedAtMs, listedUntilMs } = input.lastCycle;
  const known = [
    (input.oldestOpenCreatedAtMs ?? Number.NaN) - PROVIDER_TIME_MARGIN_MS,
    listedUntilMs !== undefined
      ? listedUntilMs - PROVIDER_TIME_MARGIN_MS
      : (startedAtMs ?? Number.NaN) - SYNC_OVERLAP_MS,
  ].filter(Number.isFinite);
  return known.length === 0 ? floor : Math.max(floor, Math.min(...known));
}
