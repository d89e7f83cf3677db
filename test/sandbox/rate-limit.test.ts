import { afterEach, describe, expect, it } from 'vitest';
import {
  type PartnerSandbox,
  type PartnerSandboxOptions,
  startPartnerSandbox,
} from '../../src/sandbox/partner/index.js';
import { retryAfterSeconds, SlidingWindowLimiter } from '../../src/sandbox/partner/rate-limit.js';
import { call, control, DEMO_TOKEN, OTHER_TOKEN, sleep } from './helpers.js';

describe('SlidingWindowLimiter', () => {
  it('admits `limit` requests per trailing window and says when the oldest leaves', () => {
    const limiter = new SlidingWindowLimiter(3, 1000);
    expect(limiter.take('t', 0)).toEqual({ admitted: true });
    expect(limiter.take('t', 100)).toEqual({ admitted: true });
    expect(limiter.take('t', 200)).toEqual({ admitted: true });
    expect(limiter.take('t', 300)).toEqual({ admitted: false, retryAfterMs: 700 });
    expect(limiter.take('t', 999)).toEqual({ admitted: false, retryAfterMs: 1 });
    // The request at 0 leaves exactly at 1000.
    expect(limiter.take('t', 1000)).toEqual({ admitted: true });
    expect(limiter.take('t', 1050)).toEqual({ admitted: false, retryAfterMs: 50 });
  });

  it('slides rather than resetting on a fixed boundary', () => {
    const limiter = new SlidingWindowLimiter(2, 1000);
    limiter.take('t', 0);
    limiter.take('t', 900);
    // A fixed window starting at 0 would allow two more at 1000; a sliding one allows one.
    expect(limiter.take('t', 1000).admitted).toBe(true);
    expect(limiter.take('t', 1001)).toEqual({ admitted: false, retryAfterMs: 899 });
  });

  it('does not count refused requests, so knocking early does not delay recovery', () => {
    const limiter = new SlidingWindowLimiter(1, 1000);
    limiter.take('t', 0);
    for (let at = 10; at < 1000; at += 10) expect(limiter.take('t', at).admitted).toBe(false);
    expect(limiter.take('t', 1000).admitted).toBe(true);
  });

  it('keeps one budget per key', () => {
    const limiter = new SlidingWindowLimiter(1, 1000);
    expect(limiter.take('a', 0).admitted).toBe(true);
    expect(limiter.take('b', 0).admitted).toBe(true);
    expect(limiter.take('a', 1).admitted).toBe(false);
  });

  it('after lowering the limit, waits until enough of the counted requests have left', () => {
    const limiter = new SlidingWindowLimiter(3, 1000);
    limiter.take('t', 0);
    limiter.take('t', 100);
    limiter.take('t', 200);
    limiter.configure(1, 1000);
    // Only one may be in the window: the one at 200 must leave, at 1200.
    expect(limiter.take('t', 300)).toEqual({ admitted: false, retryAfterMs: 900 });
    expect(() => limiter.configure(0, 1000)).toThrow(RangeError);
  });

  it('rounds Retry-After up to whole seconds, never below 1', () => {
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(1000)).toBe(1);
    expect(retryAfterSeconds(1001)).toBe(2);
    expect(retryAfterSeconds(59_999)).toBe(60);
  });
});

describe('per-token rate limit over HTTP', () => {
  let sandbox: PartnerSandbox;
  const start = async (options: PartnerSandboxOptions) => {
    sandbox = await startPartnerSandbox(options);
  };
  afterEach(async () => {
    await sandbox?.close();
  });

  it('answers 429 with Retry-After and an Error body once the window is full, per token', async () => {
    await start({ rateLimit: 5, rateWindowMs: 500 });
    for (let i = 0; i < 5; i++) expect((await call(sandbox, 'GET', '/shipments')).status).toBe(200);

    const refused = await call(sandbox, 'GET', '/shipments/any');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toEqual({ success: false, message: expect.any(String) });
    // Early knocks are refused again; another token has its own budget.
    expect((await call(sandbox, 'POST', '/shipments', { body: {} })).status).toBe(429);
    expect((await call(sandbox, 'GET', '/shipments', { token: OTHER_TOKEN })).status).toBe(200);
  });

  it('admits again once the oldest counted request has left the window', async () => {
    await start({ rateLimit: 3, rateWindowMs: 300 });
    for (let i = 0; i < 3; i++) await call(sandbox, 'GET', '/shipments');
    expect((await call(sandbox, 'GET', '/shipments')).status).toBe(429);
    const oldest = sandbox.requests[0]!.at;
    await sleep(oldest + 300 - Date.now() + 10);
    expect((await call(sandbox, 'GET', '/shipments')).status).toBe(200);
  });

  it('is satisfied by a client that waits Retry-After seconds', async () => {
    await start({ rateLimit: 2, rateWindowMs: 400 });
    await call(sandbox, 'GET', '/shipments');
    await call(sandbox, 'GET', '/shipments');
    const refused = await call(sandbox, 'GET', '/shipments');
    expect(refused.status).toBe(429);
    await sleep(Number(refused.headers.get('retry-after')) * 1000);
    expect((await call(sandbox, 'GET', '/shipments')).status).toBe(200);
  });

  it('computes Retry-After from when the oldest request leaves, not a fixed period', async () => {
    await start({ rateLimit: 2, rateWindowMs: 2500 });
    await call(sandbox, 'GET', '/shipments');
    await call(sandbox, 'GET', '/shipments');
    expect((await call(sandbox, 'GET', '/shipments')).headers.get('retry-after')).toBe('3');
    await sleep(600);
    expect((await call(sandbox, 'GET', '/shipments')).headers.get('retry-after')).toBe('2');
  });

  it('slides: after part of the window has passed only the requests that left free a slot', async () => {
    await start({ rateLimit: 2, rateWindowMs: 600 });
    await call(sandbox, 'GET', '/shipments');
    await sleep(200);
    await call(sandbox, 'GET', '/shipments');
    await sleep(480); // the first request has left, the second has not
    expect((await call(sandbox, 'GET', '/shipments')).status).toBe(200);
    expect((await call(sandbox, 'GET', '/shipments')).status).toBe(429);
  });

  it('does not charge a token for requests refused with 401', async () => {
    await start({ rateLimit: 1, rateWindowMs: 60_000 });
    sandbox.revokeToken(OTHER_TOKEN);
    for (let i = 0; i < 3; i++) {
      expect((await call(sandbox, 'GET', '/shipments', { token: OTHER_TOKEN })).status).toBe(401);
    }
    expect((await call(sandbox, 'GET', '/shipments')).status).toBe(200);
  });

  it('logs every API request, 429s and 401s included, and no control request', async () => {
    await start({ rateLimit: 2, rateWindowMs: 60_000 });
    await call(sandbox, 'GET', '/shipments?page=1');
    await call(sandbox, 'GET', '/shipments/abc');
    await call(sandbox, 'POST', '/shipments', { body: {} });
    await call(sandbox, 'GET', '/shipments', { token: null });
    await control(sandbox, 'GET', '/requests');

    expect(
      sandbox.requests.map(({ token, method, path, status }) => ({ token, method, path, status })),
    ).toEqual([
      { token: DEMO_TOKEN, method: 'GET', path: '/api/v1/shipments', status: 200 },
      { token: DEMO_TOKEN, method: 'GET', path: '/api/v1/shipments/abc', status: 404 },
      { token: DEMO_TOKEN, method: 'POST', path: '/api/v1/shipments', status: 429 },
      { token: null, method: 'GET', path: '/api/v1/shipments', status: 401 },
    ]);
    const ats = sandbox.requests.map((r) => r.at);
    expect(ats).toEqual([...ats].sort((a, b) => a - b));
    expect(Math.abs(ats[0]! - Date.now())).toBeLessThan(5_000);

    const overHttp = await control(sandbox, 'GET', '/requests');
    expect(overHttp.body).toHaveLength(4);
    sandbox.resetRequestLog();
    expect(sandbox.requests).toHaveLength(0);
    await call(sandbox, 'GET', '/shipments', { token: OTHER_TOKEN });
    expect(sandbox.requests).toHaveLength(1);
    expect((await control(sandbox, 'DELETE', '/requests')).status).toBe(204);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('never admits more than the limit in any sliding window under a burst (audited from the log)', async () => {
    await start({ rateLimit: 4, rateWindowMs: 200 });
    const until = Date.now() + 500;
    while (Date.now() < until) {
      await Promise.all([call(sandbox, 'GET', '/shipments'), call(sandbox, 'GET', '/shipments')]);
    }
    const admitted = sandbox.requests.filter((r) => r.status === 200).map((r) => r.at);
    expect(sandbox.requests.some((r) => r.status === 429)).toBe(true);
    expect(admitted.length).toBeGreaterThan(4);
    for (const at of admitted) {
      expect(
        admitted.filter((other) => other > at - 200 && other <= at).length,
      ).toBeLessThanOrEqual(4);
    }
  });

  it('takes a new limit and window at run time, in code and over the control endpoint', async () => {
    await start({ rateLimit: 1, rateWindowMs: 60_000 });
    await call(sandbox, 'GET', '/shipments');
    expect((await call(sandbox, 'GET', '/shipments')).status).toBe(429);
    sandbox.setRateLimit(3, 60_000);
    expect((await call(sandbox, 'GET', '/shipments')).status).toBe(200);

    const changed = await control(sandbox, 'POST', '/rate-limit', { limit: 10, windowMs: 60_000 });
    expect(changed.body).toEqual({ limit: 10, windowMs: 60_000 });
    expect((await call(sandbox, 'GET', '/shipments')).status).toBe(200);
    expect((await control(sandbox, 'POST', '/rate-limit', { limit: 0, windowMs: 1 })).status).toBe(
      400,
    );
  });
});
