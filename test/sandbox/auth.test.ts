import { afterEach, describe, expect, it } from 'vitest';
import {
  type PartnerSandbox,
  type PartnerSandboxOptions,
  startPartnerSandbox,
} from '../../src/sandbox/partner/index.js';
import {
  COPENHAGEN_TIMESTAMP,
  call,
  control,
  DEMO_EMAIL,
  DEMO_TOKEN,
  OTHER_EMAIL,
  OTHER_TOKEN,
  sleep,
  validShipment,
} from './helpers.js';

let sandbox: PartnerSandbox;
const start = async (options: PartnerSandboxOptions = {}) => {
  sandbox = await startPartnerSandbox(options);
  return sandbox;
};
afterEach(async () => {
  await sandbox?.close();
});

const exchange = (email: string, password: string, name: unknown = 'shopify-connector') =>
  call(sandbox, 'POST', '/token', { token: null, body: { email, password, name } });

describe('POST /token', () => {
  it('exchanges correct credentials for a new token that acts for the same account', async () => {
    await start();
    await call(sandbox, 'POST', '/shipments', { body: validShipment('tok-1') });

    const answer = await exchange(DEMO_EMAIL, 'sandbox-password');

    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ token_type: 'Bearer', account: 'Demo Shop ApS' });
    expect(answer.body.created_at).toMatch(COPENHAGEN_TIMESTAMP);
    expect(answer.body.token).toMatch(/^sbx_[0-9a-f]{40}$/);
    expect(answer.body.token).not.toBe(DEMO_TOKEN);
    const read = await call(sandbox, 'GET', '/shipments/tok-1', { token: answer.body.token });
    expect(read.status).toBe(200);
  });

  it('matches the email case-insensitively and names the other account for its credentials', async () => {
    await start();
    const answer = await exchange('OTHER@Sandbox.local', 'other-password');
    expect(answer.status).toBe(201);
    expect(answer.body.account).toBe('Other Partner A/S');
  });

  it('answers 401 with an Error body for a wrong password or an unknown email', async () => {
    await start();
    for (const [email, password] of [
      [DEMO_EMAIL, 'wrong'],
      ['nobody@sandbox.local', 'sandbox-password'],
      [DEMO_EMAIL, 'other-password'],
    ] as const) {
      const answer = await exchange(email, password);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ success: false, message: expect.any(String) });
    }
  });

  it('answers 422 keyed by field when email or password is missing, without counting a failure', async () => {
    await start();
    const answer = await call(sandbox, 'POST', '/token', { token: null, body: { name: 'x' } });
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.errors).sort()).toEqual(['email', 'password']);
    for (let i = 0; i < 6; i++) {
      await call(sandbox, 'POST', '/token', { token: null, body: { email: DEMO_EMAIL } });
    }
    expect((await exchange(DEMO_EMAIL, 'sandbox-password')).status).toBe(201);
  });

  it('locks the email out after five failures in a minute: 429 with Retry-After even for the right password', async () => {
    await start();
    for (let i = 0; i < 5; i++) {
      expect((await exchange(DEMO_EMAIL, `wrong-${i}`)).status).toBe(401);
    }
    const locked = await exchange(DEMO_EMAIL, 'sandbox-password');
    expect(locked.status).toBe(429);
    expect(locked.body.success).toBe(false);
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(59);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another account is not affected.
    expect((await exchange(OTHER_EMAIL, 'other-password')).status).toBe(201);
  });

  it('lets the email in again once the lockout has passed', async () => {
    await start({ tokenLockout: { lockoutMs: 300 } });
    for (let i = 0; i < 5; i++) await exchange(DEMO_EMAIL, 'wrong');
    const locked = await exchange(DEMO_EMAIL, 'sandbox-password');
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe('1');
    await sleep(320);
    expect((await exchange(DEMO_EMAIL, 'sandbox-password')).status).toBe(201);
  });

  it('counts only failures inside the window, and a success clears them', async () => {
    await start({ tokenLockout: { failureWindowMs: 200 } });
    for (let i = 0; i < 4; i++) await exchange(DEMO_EMAIL, 'wrong');
    await sleep(230);
    // Four old failures left the window: one more is not the fifth.
    expect((await exchange(DEMO_EMAIL, 'wrong')).status).toBe(401);
    expect((await exchange(DEMO_EMAIL, 'sandbox-password')).status).toBe(201);
    for (let i = 0; i < 4; i++) await exchange(DEMO_EMAIL, 'wrong');
    expect((await exchange(DEMO_EMAIL, 'sandbox-password')).status).toBe(201);
  });
});

describe('bearer authentication', () => {
  const endpoints = [
    ['GET', '/shipments'],
    ['GET', '/shipments/anything'],
    ['POST', '/shipments'],
  ] as const;

  it.each([
    ['missing', null, undefined],
    ['unknown', 'sbx_not_issued', undefined],
    ['not a bearer scheme', null, `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['bearer without a token', null, 'Bearer'],
    ['bearer with two words', null, `Bearer ${DEMO_TOKEN} extra`],
  ])('answers 401 on every endpoint when the token is %s', async (_case, token, header) => {
    await start();
    for (const [method, path] of endpoints) {
      const answer = await call(sandbox, method, path, {
        token,
        headers: header ? { authorization: header } : {},
        body: method === 'POST' ? validShipment('never-stored') : undefined,
      });
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.body).toEqual({ success: false, message: 'Unauthenticated.' });
    }
    expect(sandbox.shipments()).toEqual([]);
  });

  /** Requests that fail early in other ways must still be refused for the missing token first. */
  const refusedFirst: [string, string, string, RequestInit?][] = [
    ['an unknown API route', 'GET', '/api/v1/quotes'],
    ['a path outside /api/v1', 'GET', '/'],
    ['another API version', 'GET', '/api/v2/shipments'],
    ['a method no route takes', 'DELETE', '/api/v1/shipments'],
    ['a malformed escape in the path', 'GET', '/api/v1/shipments/%E0%A4%A'],
    ['a URL longer than the sandbox serves', 'GET', `/api/v1/shipments/${'r'.repeat(9_000)}`],
    ['a query longer than the sandbox serves', 'GET', `/api/v1/shipments?x=${'r'.repeat(9_000)}`],
    [
      'a body over 2 MB',
      'POST',
      '/api/v1/shipments',
      { body: 'x'.repeat(3 * 1024 * 1024), headers: { 'content-type': 'application/json' } },
    ],
    [
      'a body that is not JSON',
      'POST',
      '/api/v1/shipments',
      { body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    ],
    [
      'malformed JSON',
      'POST',
      '/api/v1/shipments',
      { body: '{"reference": ', headers: { 'content-type': 'application/json' } },
    ],
  ];

  it.each(refusedFirst)(
    'checks the token before anything else: 401 for %s',
    async (_case, method, path, init) => {
      await start();
      const origin = new URL(sandbox.url).origin;
      const response = await fetch(`${origin}${path}`, { method, ...init });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ success: false, message: 'Unauthenticated.' });
      expect(sandbox.shipments()).toEqual([]);
    },
  );

  it('lets the token exchange and the control endpoints through without a token', async () => {
    await start();
    expect((await exchange(DEMO_EMAIL, 'sandbox-password')).status).toBe(201);
    expect((await control(sandbox, 'GET', '/')).status).toBe(200);
    expect((await control(sandbox, 'GET', '/requests')).status).toBe(200);
    // Only POST is the exchange; other methods on /token are ordinary API routes.
    expect((await call(sandbox, 'GET', '/token', { token: null })).status).toBe(401);
  });

  it('rate-limits a request the router cannot route like any other, before saying why', async () => {
    await start({ rateLimit: 1, rateWindowMs: 60_000 });
    expect((await call(sandbox, 'GET', '/shipments')).status).toBe(200);
    const answer = await call(sandbox, 'GET', '/shipments/%E0%A4%A');
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(answer.body).toEqual({ success: false, message: expect.any(String) });
  });

  it('accepts the scheme name in any case', async () => {
    await start();
    const answer = await call(sandbox, 'GET', '/shipments', {
      token: null,
      headers: { authorization: `bearer ${DEMO_TOKEN}` },
    });
    expect(answer.status).toBe(200);
  });

  it('refuses a revoked token while other tokens keep working', async () => {
    await start();
    expect((await call(sandbox, 'GET', '/shipments')).status).toBe(200);
    expect(sandbox.revokeToken(DEMO_TOKEN)).toBe(true);
    expect((await call(sandbox, 'GET', '/shipments')).status).toBe(401);
    expect((await call(sandbox, 'GET', '/shipments', { token: OTHER_TOKEN })).status).toBe(200);
    expect(sandbox.revokeToken('sbx_never_issued')).toBe(false);
  });

  it('revokes over the control endpoint, and 404s an unknown token there', async () => {
    await start();
    const fresh = sandbox.issueToken(OTHER_EMAIL);
    expect((await call(sandbox, 'GET', '/shipments', { token: fresh })).status).toBe(200);
    expect((await control(sandbox, 'POST', '/tokens/revoke', { token: fresh })).status).toBe(200);
    expect((await call(sandbox, 'GET', '/shipments', { token: fresh })).status).toBe(401);
    expect((await control(sandbox, 'POST', '/tokens/revoke', { token: 'nope' })).status).toBe(404);
  });

  it('issues tokens bound to the named account, in code and over the control endpoint', async () => {
    await start();
    await call(sandbox, 'POST', '/shipments', { token: OTHER_TOKEN, body: validShipment('o-1') });
    const inCode = sandbox.issueToken(OTHER_EMAIL, 'second integration');
    const overHttp = await control(sandbox, 'POST', '/tokens', { email: OTHER_EMAIL });
    expect(overHttp.status).toBe(201);
    for (const token of [inCode, overHttp.body.token]) {
      expect(token).not.toBe(OTHER_TOKEN);
      expect((await call(sandbox, 'GET', '/shipments/o-1', { token })).status).toBe(200);
      expect((await call(sandbox, 'GET', '/shipments/o-1', { token: DEMO_TOKEN })).status).toBe(
        404,
      );
    }
    expect(() => sandbox.issueToken('nobody@sandbox.local')).toThrow(/No sandbox account/);
  });
});
