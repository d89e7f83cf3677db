/**
 * What the client asks before every request. The shared Redis budget implements it; the client
 * itself knows nothing of Redis or queues.
 */
export type RequestPriority = 'create' | 'sync';

/** A grant may name its place in the budget (`slot`), so that it can be moved or given back. */
export type GateDecision = { granted: true; slot?: string } | { granted: false; waitMs: number };

export interface RequestGate {
  /** Takes one request from the budget now, or says how long to wait. Never sleeps. */
  take(priority: RequestPriority): Promise<GateDecision>;
  /** Records a 429 so that no process sends with this token until `waitMs` has passed. */
  block(waitMs: number): Promise<void>;
  /**
   * For a place taken ahead of the work that leads to its request: moves it to now, as the
   * request leaves. False when the place is gone (it outlived the window, or a 429 since then
   * blocks every request): take anew, which says how long to wait.
   */
  confirm?(slot: string): Promise<boolean>;
  /** Gives back a place taken ahead that no request used. */
  release?(slot: string): Promise<void>;
}
