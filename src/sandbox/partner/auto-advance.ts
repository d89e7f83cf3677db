/**
 * Moves shipments on their own: each followed shipment takes one step every `intervalMs`
 * until it can move no further. Timers are unref'd so they never keep a process alive.
 */
export class AutoAdvancer {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly intervalMs: number) {}

  /** `step` takes one step and returns false once the shipment is terminal. */
  follow(step: () => boolean): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (step()) this.follow(step);
    }, this.intervalMs);
    timer.unref();
    this.timers.add(timer);
  }

  stopAll(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
