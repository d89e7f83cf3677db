/**
 * What the client asks before every request. The shared Redis budget implements it; the client
 * itself knows nothing of Redis or queues.
 */
export type RequestPriority = 'create' | 'sync';

export type GateDecision = { granted: true } | { granted: false; waitMs: number };

export interface RequestGate {
  /** Takes one request from the budget now, or says how long to wait. Never sleeps. */
  take(priority: RequestPriority): Promise<GateDecision>;
  /** Records a 429 so that no process sends with this token until `waitMs` has passed. */
  block(waitMs: number): Promise<void>;
}
