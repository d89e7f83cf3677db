const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 3600_000;

/** An ISO timestamp as people read it: a space for the T, whole seconds. */
export const utcText = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');

/** A day starts at its first moment, UTC. */
export function parseDay(value: string): Date {
  const date = new Date(DAY.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) throw new Error(`Not a date: ${value} (use YYYY-MM-DD)`);
  return date;
}

/** A day includes all of that day; a timestamp is the last moment itself. */
export function parseUntil(value: string): Date {
  const date = parseDay(value);
  return DAY.test(value) ? new Date(date.getTime() + DAY_MS - 1) : date;
}
