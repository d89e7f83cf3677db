/**
 * Failed `POST /token` attempts per email: after `maxFailures` within `failureWindowMs`, every
 * attempt for that email (correct credentials included) is refused until the lockout ends.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();
  private readonly lockedUntil = new Map<string, number>();

  constructor(
    private readonly options: { maxFailures: number; failureWindowMs: number; lockoutMs: number },
  ) {}

  /** Milliseconds left in the lockout of this email, or 0 when attempts are allowed. */
  lockedForMs(email: string, now: number): number {
    const key = email.trim().toLowerCase();
    const until = this.lockedUntil.get(key);
    if (until === undefined) return 0;
    if (until > now) return until - now;
    // The lockout is over: start counting afresh.
    this.lockedUntil.delete(key);
    this.failures.delete(key);
    return 0;
  }

  recordFailure(email: string, now: number): void {
    const key = email.trim().toLowerCase();
    const recent = (this.failures.get(key) ?? []).filter(
      (at) => at > now - this.options.failureWindowMs,
    );
    recent.push(now);
    this.failures.set(key, recent);
    if (recent.length >= this.options.maxFailures) {
      this.lockedUntil.set(key, now + this.options.lockoutMs);
    }
  }

  recordSuccess(email: string): void {
    this.failures.delete(email.trim().toLowerCase());
  }
}
