import type { pino } from 'pino';

const LEVEL_NAMES: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/** Fields worth a newcomer's eye; the rest (pid, hostname, stacks) stays in real logs. */
const SHOWN_FIELDS = ['orderId', 'queue', 'jobId', 'attemptsMade', 'fields'] as const;

/**
 * Start-up warnings about what the demo itself chose: retries made fast so a hiccup takes a
 * second, a Redis that is a throwaway, a first start. They matter in production and say nothing
 * about the demo, so it leaves them out.
 */
const DEMO_MADE_WARNINGS = [
  'CREATE_ATTEMPTS and CREATE_BACKOFF_* give up',
  'Redis runs with appendonly no',
  'no reconciliation watermark in Redis',
];

/**
 * A pino destination that turns each JSON log line into one short readable line, so the
 * connector's own warnings appear inside the demo's narrative instead of as raw JSON.
 */
export function logLines(print: (line: string) => void): pino.DestinationStream {
  return {
    write(chunk: string) {
      for (const raw of chunk.split('\n')) {
        if (raw.trim() === '') continue;
        const line = formatLogLine(raw);
        if (DEMO_MADE_WARNINGS.some((warning) => line.includes(warning))) continue;
        print(line);
      }
    },
  };
}

export function formatLogLine(raw: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return raw;
  }
  const level = LEVEL_NAMES[Number(entry.level)] ?? String(entry.level);
  const details = SHOWN_FIELDS.filter((key) => entry[key] !== undefined).map(
    (key) => `${key}=${JSON.stringify(entry[key])}`,
  );
  const err = entry.err as { message?: string } | undefined;
  if (err?.message) details.push(`error=${JSON.stringify(firstLine(err.message))}`);
  return `   (connector log, ${level}) ${String(entry.msg ?? '')}${details.length ? `  ${details.join(' ')}` : ''}`;
}

function firstLine(text: string): string {
  const [first = '', ...rest] = text.split('\n');
  return rest.length > 0 ? `${first} …` : first;
}
