import { appendFileSync, mkdirSync } from 'node:fs';

/**
 * `npm run test:reliability` sets RELIABILITY_FULL=1 and runs every scenario at full size;
 * `npm test` runs the same scenarios small, to keep the default run short.
 */
export const FULL = process.env.RELIABILITY_FULL === '1';

/** Where every run's figures, seeds and failed scenarios' logs go (docs/reliability.md). */
export const RELIABILITY_LOG = '.cache/reliability.log';

/** On the terminal too: in the full run, or with RELIABILITY_VERBOSE=1. */
const ON_TERMINAL = FULL || process.env.RELIABILITY_VERBOSE === '1';

export function size<T>(full: T, short: T): T {
  return FULL ? full : short;
}

/** One line of figures per scenario, collected in docs/reliability.md. */
export function report(scenario: string, figures: Record<string, unknown>): void {
  note(`${scenario} ${JSON.stringify({ full: FULL, ...figures })}`);
}

/**
 * A line for the reliability log (seeds, figures, a failed scenario's logs): kept out of
 * `npm test`'s output, where figures read like failures.
 */
export function note(text: string): void {
  const line = `[reliability] ${new Date().toISOString()} ${text}\n`;
  mkdirSync('.cache', { recursive: true });
  appendFileSync(RELIABILITY_LOG, line);
  if (ON_TERMINAL) process.stdout.write(line);
}
