import { Writable } from 'node:stream';
import { pino } from 'pino';

/** Not pino-pretty, so it works with production dependencies only. Redaction is already done. */

const COLOURS: Record<number, string> = { 40: '\x1b[33m', 50: '\x1b[31m', 60: '\x1b[41m' };
const RESET = '\x1b[0m';
const HEAD = new Set(['level', 'time', 'pid', 'hostname', 'name', 'module', 'msg', 'err']);

export function formatLogLine(line: string, colour = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const level = Number(entry.level);
  const time = new Date(Number(entry.time)).toISOString().slice(11, 23);
  const where = [entry.name, entry.module].filter(Boolean).join('/');
  const label = pino.levels.labels[level]?.toUpperCase().padEnd(5) ?? String(entry.level);
  const painted = colour && COLOURS[level] ? `${COLOURS[level]}${label}${RESET}` : label;
  const fields = Object.entries(entry)
    .filter(([key]) => !HEAD.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  let text = `${time} ${painted} ${where}: ${entry.msg ?? ''}${fields.length ? `  ${fields.join(' ')}` : ''}`;
  const err = entry.err as { message?: string; stack?: string } | undefined;
  if (err)
    text += `\n    ${(err.stack ?? err.message ?? JSON.stringify(err)).replace(/\n/g, '\n    ')}`;
  return `${text}\n`;
}

export function prettyStream(out: { write(text: string): unknown; isTTY?: boolean }): Writable {
  const colour = Boolean(out.isTTY);
  return new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) {
        if (line) out.write(formatLogLine(line, colour));
      }
      done();
    },
  });
}
