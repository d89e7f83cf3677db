const DAY_MS = 24 * 3600_000;

/**
 * How far before a known creation time the list is read again: covers a difference between the
 * provider's clock and ours, and the seconds the provider's filter may round away.
 */
export const SYNC_OVERLAP_MS = 15 * 60_000;

/**
 * The created_after of a new cycle: the creation of the oldest shipment still moving, or the
 * start of the last cycle (shipments created since then may be new to us), whichever is older,
 * less the overlap; never further back than the lookback. Nothing known (a first run, or Redis
 * lost its data): the whole lookback, which adopts what the provider holds.
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
