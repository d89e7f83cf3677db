/**
 * `npm run test:reliability` sets RELIABILITY_FULL=1 and runs every scenario at full size;
 * `npm test` runs the same scenarios small, to keep the default run short.
 */
export const FULL = process.env.RELIABILITY_FULL === '1';

export function size<T>(full: T, short: T): T {
  return FULL ? full : short;
}

/** One line of figures per scenario, collected in docs/reliability.md. */
export function report(scenario: string, figures: Record<string, unknown>): void {
  note(`${scenario} ${JSON.stringify({ full: FULL, ...figures })}`);
}

/** A line in the run's output (seeds, figures, a failed scenario's logs). */
export function note(text: string): void {
  process.stdout.write(`[reliability] ${text}\n`);
}
