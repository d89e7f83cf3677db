/**
 * A true sliding window per token: a request is admitted when fewer than `limit` admitted
 * requests of the same token arrived in the last `windowMs` (a request at `t` counts while
 * `t > now - windowMs`). Refused (429) requests are not recorded, so a client that keeps
 * knocking early does not push its own recovery further away; it simply gets 429 again.
 */
export class SlidingWindowLimiter {
  private readonly admitted = new Map<string, number[]>();

  constructor(
    private limit: number,
    private windowMs: number,
  ) {
    SlidingWindowLimiter.check(limit, windowMs);
  }

  get settings(): { limit: number; windowMs: number } {
    return { limit: this.limit, windowMs: this.windowMs };
  }

  configure(limit: number, windowMs: number): void {
    SlidingWindowLimiter.check(limit, windowMs);
    this.limit = limit;
    this.windowMs = windowMs;
  }

  /** Admits and records the request, or says how long until the oldest counted one leaves. */
  take(key: string, now: number): { admitted: true } | { admitted: false; retryAfterMs: number } {
    const inWindow = (this.admitted.get(key) ?? []).filter((at) => at > now - this.windowMs);
    if (inWindow.length < this.limit) {
      inWindow.push(now);
      this.admitted.set(key, inWindow);
      return { admitted: true };
    }
    this.admitted.set(key, inWindow);
    // The limit may have been lowered: a slot frees when the request `limit` places from the
    // newest leaves the window.
    const freeingAt = inWindow[inWindow.length - this.limit]! + this.windowMs;
    return { admitted: false, retryAfterMs: freeingAt - now };
  }

  private static check(limit: number, windowMs: number): void {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be an integer ≥ 1');
    if (!Number.isInteger(windowMs) || windowMs < 1) {
      throw new RangeError('windowMs must be an integer ≥ 1');
    }
  }
}

/** The Retry-After header value: whole seconds, rounded up, never 0. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
