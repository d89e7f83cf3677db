/**
 * Retry delays for transient partner failures: doubling from `firstMs`, capped at `maxMs`, less up
 * to 20% jitter so that jobs which failed together do not all return together.
 */
export interface BackoffSettings {
  firstMs: number;
  maxMs: number;
}

export const BACKOFF_TYPE = 'capped-exponential';
const JITTER = 0.2;

/** Delay before the next attempt, after `attemptsMade` attempts (1 after the first failure). */
export function retryDelayMs(
  attemptsMade: number,
  settings: BackoffSettings,
  random: () => number = Math.random,
): number {
  const full = Math.min(settings.maxMs, settings.firstMs * 2 ** Math.max(0, attemptsMade - 1));
  return Math.round(full * (1 - JITTER * random()));
}

/** The shortest time all retries of `attempts` attempts can span, with the largest jitter. */
export function minimumRetrySpanMs(attempts: number, settings: BackoffSettings): number {
  let total = 0;
  for (let made = 1; made < attempts; made++) total += retryDelayMs(made, settings, () => 1);
  return total;
}
