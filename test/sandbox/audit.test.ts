import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src/sandbox/partner/index.js';
import { auditRequests } from '../../src/sandbox/partner/index.js';

const entry = (at: number, status = 201, retryAfterS?: number): RequestLogEntry => ({
  at,
  token: 't',
  method: 'POST',
  path: '/api/v1/shipments',
  query: '',
  status,
  ...(retryAfterS === undefined ? {} : { retryAfterS }),
});

describe('auditRequests', () => {
  it('finds the busiest sliding window, not the busiest fixed one', () => {
    // Fixed windows [0,1000) and [1000,2000) hold 3 each; the window (500,1500] holds 4.
    const log = [0, 600, 900, 1100, 1400, 1900].map((at) => entry(at));
    expect(auditRequests(log, { windowMs: 1_000 }).maxInWindow).toBe(4);
  });

  it('does not count a request exactly one window older', () => {
    const log = [0, 1_000].map((at) => entry(at));
    expect(auditRequests(log, { windowMs: 1_000 }).maxInWindow).toBe(1);
  });

  it('counts requests that came back before Retry-After had passed', () => {
    const log = [entry(0, 429, 2), entry(20), entry(1_500), entry(2_000), entry(2_500)];
    const audit = auditRequests(log, { windowMs: 1_000, graceMs: 50 });
    expect(audit.rateLimited).toBe(1);
    // 20 ms after is still in flight; 1 500 is early; 2 000 and later are fine.
    expect(audit.sentEarly).toBe(1);
    expect(audit.admitted).toBe(4);
  });

  it('looks at one token when asked', () => {
    const log = [entry(0), { ...entry(1), token: 'other' }];
    expect(auditRequests(log, { windowMs: 1_000, token: 'other' }).admitted).toBe(1);
  });
});
