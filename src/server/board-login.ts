/** Per process. Refused, whatever it sends, until its oldest failure leaves the window. */
export const MAX_FAILURES = 10;
export const WINDOW_MS = 10 * 60_000;
/** Bounds the memory a flood from many addresses can take. */
const MAX_CLIENTS = 10_000;

export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** 0: not throttled. */
  waitMs(client: string): number {
    const times = this.recent(client);
    if (times.length < MAX_FAILURES) return 0;
    return times[times.length - MAX_FAILURES]! + WINDOW_MS - this.now();
  }

  fail(client: string): number {
    const times = this.recent(client);
    times.push(this.now());
    // Re-inserted, so the first key is the stalest.
    this.failures.delete(client);
    this.failures.set(client, times.slice(-MAX_FAILURES));
    if (this.failures.size > MAX_CLIENTS) this.failures.delete(this.failures.keys().next().value!);
    return times.length;
  }

  succeed(client: string): void {
    this.failures.delete(client);
  }

  private recent(client: string): number[] {
    const since = this.now() - WINDOW_MS;
    return (this.failures.get(client) ?? []).filter((at) => at > since);
  }
}
