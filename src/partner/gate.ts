/** The client knows nothing of Redis or queues: the shared budget implements this. */
export type RequestPriority = 'create' | 'sync';

export type GateDecision = { granted: true; slot?: string } | { granted: false; waitMs: number };

export type ConfirmOutcome = 'moved' | 'gone' | 'blocked';

export interface RequestGate {
  /** Never sleeps. */
  take(priority: RequestPriority): Promise<GateDecision>;
  /** No process sends with this token until `waitMs` has passed. */
  block(waitMs: number): Promise<void>;
  /** `gone`: it outlived the window; `blocked`: a 429 since then (the place is kept). */
  confirm?(slot: string): Promise<ConfirmOutcome>;
  blockedForMs?(): Promise<number>;
  release?(slot: string): Promise<void>;
}
