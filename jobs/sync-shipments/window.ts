const DAY_MS = 24 * 3600_000;

/** For a time on this clock: covers its difference with the provider's. */
export const SYNC_OVERLAP_MS = 15 * 60_000;

/**
 * For a time on the provider's clock: the seconds its created_after filter may round away, and
 * a listing a moment behind its writes.
 */
export const PROVIDER_TIME_MARGIN_MS = 60_000;

/**
 * Reaches back to the oldest shipment still moving, and to what the last cycle listed up to (or,
 * not known, when it started), whichever is older, never beyond the lookback. With nothing known
 * (first run, Redis lost its data) it reads the whole lookback, which adopts what the provider
 * holds. The oldest open shipment's creation is on the provider's clock or earlier (the order's
 * creation), so only the provider's margin applies to it.
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
    input.oldestOpenCreatedAtMs === undefined
      ? undefined
      : input.oldestOpenCreatedAtMs - PROVIDER_TIME_MARGIN_MS,
    listedUntilMs !== undefined
      ? listedUntilMs - PROVIDER_TIME_MARGIN_MS
      : startedAtMs === undefined
        ? undefined
        : startedAtMs - SYNC_OVERLAP_MS,
  ].filter((ms): ms is number => ms !== undefined && Number.isFinite(ms));
  if (known.length === 0) return floor;
  return Math.max(floor, Math.min(...known));
}
