/**
 * What the fake store does to the next GraphQL requests instead of answering them: HTTP 200
 * THROTTLED (the cost bucket is empty) or HTTP 429 with Retry-After.
 */
export class TrafficControl {
  private throttle = { remaining: 0, currentlyAvailable: 0, restoreRate: 100 };
  private rateLimit = { remaining: 0, retryAfterSeconds: 1 };

  throttleNext(count: number, options: { currentlyAvailable?: number; restoreRate?: number } = {}) {
    this.throttle = {
      remaining: count,
      currentlyAvailable: options.currentlyAvailable ?? 0,
      restoreRate: options.restoreRate ?? 100,
    };
  }

  rateLimitNext(count: number, options: { retryAfterSeconds?: number } = {}) {
    this.rateLimit = { remaining: count, retryAfterSeconds: options.retryAfterSeconds ?? 1 };
  }

  /** Takes the next planned refusal, if any; a 429 goes before THROTTLED. */
  next():
    | { kind: 'rate_limited'; retryAfterSeconds: number }
    | { kind: 'throttled'; currentlyAvailable: number; restoreRate: number }
    | undefined {
    if (this.rateLimit.remaining > 0) {
      this.rateLimit.remaining -= 1;
      return { kind: 'rate_limited', retryAfterSeconds: this.rateLimit.retryAfterSeconds };
    }
    if (this.throttle.remaining > 0) {
      this.throttle.remaining -= 1;
      const { currentlyAvailable, restoreRate } = this.throttle;
      return { kind: 'throttled', currentlyAvailable, restoreRate };
    }
    return undefined;
  }
}
