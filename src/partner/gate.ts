/**
 * What the client asks before every request. The shared Redis budget implements it; the client
 * itself knows nothing of Redis or queues.
 */
export type RequestPriority = 'create' | 'sync';

/** A grant may name its place in the budget (`slot`), so that it can be moved or given back. */
export type GateDecision = { granted: true; slot?: string } | { granted: false; waitMs: number };

export type ConfirmOutcome = 'moved' | 'gone' | 'blocked';

export interface RequestGate {
  /** Takes one request from the budget now, or says how long to wait. Never sleeps. */
  take(priority: RequestPriority): Promise<GateDecision>;
  /** Records a 429 so that no process sends with this token until `waitMs` has passed. */
  block(waitMs: number): Promise<void>;
  /**
   * For a place taken ahead of the work that leads to its request: moves it to now, as the
   * request leaves. `gone` when it outlived the window (take anew); `blocked` while a 429 since
   * then blocks every request (the place is kept: wait, or give it back).
   */
  confirm?(slot: string): Promise<ConfirmOutcome>;
  /** Milliseconds until a 429 block ends, or 0. */
  blockedForMs?(): Promise<number>;
  /** Gives back a place taken ahead that no request used. */
  release?(slot: string): Promise<void>;
}
