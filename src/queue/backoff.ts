/** Jitter keeps jobs that failed together from all returning together. */
export interface BackoffSettings {
  firstMs: number;
  maxMs: number;
}

export const BACKOFF_TYPE = 'capped-exponential';
const JITTER = 0.2;

/** `attemptsMade` is 1 after the first failure. */
export function retryDelayMs(
  attemptsMade: number,
  settings: BackoffSettings,
  random: () => number = Math.random,
): number {
  const full = Math.min(settings.maxMs, settings.firstMs * 2 ** Math.max(0, attemptsMade - 1));
  return Math.round(full * (1 - JITTER * random()));
}

export function minimumRetrySpanMs(attempts: number, settings: BackoffSettings): number {
  let total = 0;
  for (let made = 1; made < attempts; made++) total += retryDelayMs(made, settings, () => 1);
  return total;
}
