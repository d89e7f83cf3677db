/**
 * Europe/Copenhagen wall-clock time with its UTC offset, the form the contract uses for every
 * timestamp. Reads the offset from ICU's `longOffset` zone name, so it shares no code with the
 * client's formatter: a mistake in either shows up in test/contract.
 */
const copenhagen = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Europe/Copenhagen',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'longOffset',
});

/** The last second formatted: views are made many times a second, and ICU is slow. */
let last: { second: number; fields: Record<string, string> } | undefined;

function fields(instant: Date): Record<string, string> {
  const second = Math.floor(instant.getTime() / 1_000);
  if (last?.second === second) return last.fields;
  const out: Record<string, string> = {};
  for (const part of copenhagen.formatToParts(instant)) out[part.type] = part.value;
  last = { second, fields: out };
  return out;
}

/** `GMT+01:00` → `+01:00`; ICU writes plain `GMT` for a zero offset. */
function offsetOf(zoneName: string): string {
  const match = /^GMT([+-]\d{2}:\d{2})$/.exec(zoneName);
  return match ? match[1]! : '+00:00';
}

/** `2026-11-22T14:05:09+01:00` (winter) or `…+02:00` (summer), to the second. */
export function copenhagenTimestamp(instant: Date): string {
  const f = fields(instant);
  return `${f.year}-${f.month}-${f.day}T${f.hour}:${f.minute}:${f.second}${offsetOf(f.timeZoneName ?? '')}`;
}

/** Minutes east of UTC that Copenhagen uses at this instant (60 or 120). */
export function copenhagenOffsetMinutes(instantMs: number): number {
  const offset = offsetOf(fields(new Date(instantMs)).timeZoneName ?? '');
  const minutes = Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6));
  return offset.startsWith('-') ? -minutes : minutes;
}
