/** The provider writes and expects timestamps in Copenhagen local time with their offset. */
const parts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Copenhagen',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

function copenhagenClock(epochMs: number) {
  const p = Object.fromEntries(parts.formatToParts(epochMs).map((x) => [x.type, x.value]));
  const local = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
  const offsetMin = Math.round((local - Math.floor(epochMs / 1000) * 1000) / 60_000);
  return { p, offsetMin };
}

export function toCopenhagenIso(date: Date): string {
  const { p, offsetMin } = copenhagenClock(date.getTime());
  const abs = Math.abs(offsetMin);
  const offset = [Math.floor(abs / 60), abs % 60].map((n) => String(n).padStart(2, '0')).join(':');
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${offsetMin >= 0 ? '+' : '-'}${offset}`;
}

/** Extended or basic, any precision, any offset form or none; RFC 3339's space too. */
const ISO_DATE_TIME =
  /^(\d{4})-?(\d{2})-?(\d{2})[Tt ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/** The API promises an offset, not one spelling of it; none means Copenhagen time. */
export function parsePartnerTimestamp(text: string): Date | undefined {
  const m = ISO_DATE_TIME.exec(text);
  if (!m) return undefined;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = m
    .slice(1, 7)
    .map((x) => Number(x ?? 0));
  const fraction = m[7] ?? '';
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  if (minute > 59 || second > 60) return undefined;
  // 24:00 is the end of the day, and nothing after it.
  if (hour > 24 || (hour === 24 && (minute > 0 || second > 0 || /[1-9]/.test(fraction)))) {
    return undefined;
  }
  // A leap second reads as the minute's last millisecond.
  const ms = second === 60 ? 999 : Math.floor(Number(`0.${fraction || '0'}`) * 1000);
  const wallClockAsUtc = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59), ms);

  const [zulu, sign, hours, minutes] = [m[8], m[9], Number(m[10] ?? 0), Number(m[11] ?? 0)];
  if (zulu || sign) {
    if (hours > 23 || minutes > 59) return undefined;
    const offsetMin = (sign === '-' ? -1 : 1) * (hours * 60 + minutes);
    return new Date(wallClockAsUtc - offsetMin * 60_000);
  }
  // The offset in force then, asked twice for the days it changes.
  const guess = wallClockAsUtc - copenhagenClock(wallClockAsUtc).offsetMin * 60_000;
  return new Date(wallClockAsUtc - copenhagenClock(guess).offsetMin * 60_000);
}
