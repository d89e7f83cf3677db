/** Misbehaviour switched on by tests and demos to exercise a client's error handling. */
export type MalformedBodyKind = 'schema' | 'invalid-json';

export class Faults {
  /** Creates still to answer 500 after storing the shipment. */
  failCreates = 0;
  latencyMs = 0;
  malformedNext: MalformedBodyKind | null = null;

  setFailCreates(n: number): void {
    if (!Number.isInteger(n) || n < 0) throw new RangeError('failNextCreates needs an integer ≥ 0');
    this.failCreates = n;
  }

  setLatency(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('latency must be ≥ 0 ms');
    this.latencyMs = ms;
  }

  /** True (and one fewer to go) when this create should fail. */
  takeCreateFailure(): boolean {
    if (this.failCreates === 0) return false;
    this.failCreates -= 1;
    return true;
  }

  takeMalformed(): MalformedBodyKind | null {
    const kind = this.malformedNext;
    this.malformedNext = null;
    return kind;
  }
}

/** Bodies no response schema accepts: wrong types for every documented field. */
export const MALFORMED_BODIES: Record<MalformedBodyKind, string> = {
  schema: JSON.stringify({
    success: 'perhaps',
    reference: 42,
    order_number: null,
    status: 7,
    token: false,
    data: 'not a list',
  }),
  'invalid-json': '{"reference": "truncated',
};
