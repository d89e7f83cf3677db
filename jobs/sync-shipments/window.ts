const DAY_MS = 24 * 3600_000;

/** Covers clock difference with the provider and the seconds its filter may round away. */
export const SYNC_OVERLAP_MS = 15 * 60_000;

/**
 * Reaches back to the oldest shipment still moving or the last cycle's start, whichever is older,
 * never beyond the lookback. With nothing known (first run, Redis lost its data) it reads the
 * whole lookback, which adopts what the provider holds.
 */
export function windowStartMs(input: {
  nowMs: number;
  lookbackDays: number;
  oldestOpenCreatedAtMs: number | undefined;
  lastCycleStartedAtMs: number | undefined;
}): number {
  const floor = input.nowMs - input.lookbackDays * DAY_MS;
  const known = [input.oldestOpenCreatedAtMs, input.lastCycleStartedAtMs].filter(
    (ms): ms is number => ms !== undefined && Number.isFinite(ms),
  );
  if (known.length === 0) return floor;
  return Math.max(floor, Math.min(...known) - SYNC_OVERLAP_MS);
}
