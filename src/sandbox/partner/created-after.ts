import { copenhagenOffsetMinutes } from './copenhagen-time.js';

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** A Copenhagen wall-clock time as an instant (wall times in the spring gap map an hour on). */
function fromCopenhagenWallClock(wallClockAsUtcMs: number): number {
  const first = wallClockAsUtcMs - copenhagenOffsetMinutes(wallClockAsUtcMs) * 60_000;
  return wallClockAsUtcMs - copenhagenOffsetMinutes(first) * 60_000;
}

function offsetMinutes(designator: string): number | undefined {
  if (designator.toUpperCase() === 'Z') return 0;
  const digits = designator.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return (designator[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/**
 * Parses `created_after`: an ISO 8601 date (the start of that day in Copenhagen) or date-time.
 * A date-time with an offset (or Z) is that instant; without one it is Copenhagen local time,
 * the API's own zone. Returns undefined for anything else, including impossible dates.
 */
export function parseCreatedAfter(value: string): Date | undefined {
  const m = ISO.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '0', designator] = m;
  const ms = Math.floor(Number(`0.${fraction}`) * 1000);
  const wallClock = Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s, ms);
  // Date.UTC rolls over silently (Feb 30 → Mar 2, 24:00 → next day); reject instead.
  const check = new Date(wallClock);
  if (
    check.getUTCFullYear() !== +y! ||
    check.getUTCMonth() !== +mo! - 1 ||
    check.getUTCDate() !== +d! ||
    check.getUTCHours() !== +h ||
    check.getUTCMinutes() !== +mi ||
    check.getUTCSeconds() !== +s
  ) {
    return undefined;
  }
  if (designator === undefined) return new Date(fromCopenhagenWallClock(wallClock));
  const offset = offsetMinutes(designator);
  return offset === undefined ? undefined : new Date(wallClock - offset * 60_000);
}
