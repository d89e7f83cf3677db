import type { RequestLogEntry } from './request-log.js';

export interface RequestAudit {
  /** Requests the sandbox admitted (anything but 401 and 429). */
  admitted: number;
  /** 429 answers. */
  rateLimited: number;
  /** The most admitted requests found in any sliding window of `windowMs`. */
  maxInWindow: number;
  /** Requests that arrived after a 429 (plus `graceMs` for ones already in flight) but before its Retry-After had passed. */
  sentEarly: number;
  firstAt: number | undefined;
  lastAt: number | undefined;
}

/**
 * Reads the sandbox's request log the way the provider would judge a client: how many requests
 * fell into the worst sliding window, and whether any came back before Retry-After said.
 */
export function auditRequests(
  log: readonly RequestLogEntry[],
  options: { windowMs: number; token?: string; graceMs?: number },
): RequestAudit {
  const graceMs = options.graceMs ?? 50;
  const entries = log
    .filter((e) => options.token === undefined || e.token === options.token)
    .slice()
    .sort((a, b) => a.at - b.at);
  const admitted = entries.filter((e) => e.status !== 429 && e.status !== 401);
  const refusals = entries.filter((e) => e.status === 429);

  let maxInWindow = 0;
  let start = 0;
  for (let end = 0; end < admitted.length; end++) {
    // A request at `t` counts while `t > now - windowMs`.
    while (admitted[start]!.at <= admitted[end]!.at - options.windowMs) start++;
    maxInWindow = Math.max(maxInWindow, end - start + 1);
  }

  let sentEarly = 0;
  for (const entry of entries) {
    const early = refusals.some(
      (r) => entry.at > r.at + graceMs && entry.at < r.at + (r.retryAfterS ?? 0) * 1000,
    );
    if (early) sentEarly++;
  }

  return {
    admitted: admitted.length,
    rateLimited: refusals.length,
    maxInWindow,
    sentEarly,
    firstAt: entries[0]?.at,
    lastAt: entries.at(-1)?.at,
  };
}
