import { afterEach, describe, expect, it } from 'vitest';
import { type PartnerSandbox, startPartnerSandbox } from '../../src/sandbox/partner/index.js';
import { endpointOf } from '../../src/sandbox/partner/request-counts.js';
import { call, control, DEMO_TOKEN, OTHER_TOKEN, validShipment } from './helpers.js';

let sandbox: PartnerSandbox;
afterEach(async () => {
  await sandbox?.close();
});

/** A little of everything: creates, reads of one and of the list, a 404, a 401 and a 429. */
async function traffic() {
  await call(sandbox, 'POST', '/shipments', { body: validShipment('#1001/A') });
  await call(sandbox, 'POST', '/shipments', { body: validShipment('1002') });
  await call(sandbox, 'GET', `/shipments/${encodeURIComponent('#1001/A')}`);
  await call(sandbox, 'GET', '/shipments/1002');
  await call(sandbox, 'GET', '/shipments/nope');
  await call(sandbox, 'GET', '/shipments?per_page=200&page=2');
  await call(sandbox, 'GET', '/shipments', { token: null });
  await call(sandbox, 'GET', '/shipments', { token: OTHER_TOKEN });
}

describe('request counts per endpoint', () => {
  it('counts the log per method and path template, and per answer', async () => {
    sandbox = await startPartnerSandbox();
    await traffic();
    const expected = {
      total: 8,
      byEndpoint: {
        'POST /shipments': 2,
        'GET /shipments/{reference}': 3,
        'GET /shipments': 3,
      },
      byEndpointAndStatus: {
        'POST /shipments 201': 2,
        'GET /shipments/{reference} 200': 2,
        'GET /shipments/{reference} 404': 1,
        'GET /shipments 200': 2,
        'GET /shipments 401': 1,
      },
    };
    expect(sandbox.requestCounts()).toEqual(expected);
    const overHttp = await control(sandbox, 'GET', '/requests/counts');
    expect(overHttp.status).toBe(200);
    expect(overHttp.body).toEqual(expected);
    // Reading the counts is not itself an API request.
    expect(sandbox.requestCounts().total).toBe(8);
  });

  it('counts one token, or only what arrived since an instant', async () => {
    sandbox = await startPartnerSandbox({ rateLimit: 1, rateWindowMs: 60_000 });
    await call(sandbox, 'GET', '/shipments');
    await call(sandbox, 'GET', '/shipments');
    const since = sandbox.requests.at(-1)!.at + 1;
    while (Date.now() < since) await new Promise((resolve) => setImmediate(resolve));
    await call(sandbox, 'GET', '/shipments/x', { token: OTHER_TOKEN });

    expect(sandbox.requestCounts({ token: DEMO_TOKEN }).byEndpointAndStatus).toEqual({
      'GET /shipments 200': 1,
      'GET /shipments 429': 1,
    });
    expect(sandbox.requestCounts({ since }).byEndpoint).toEqual({
      'GET /shipments/{reference}': 1,
    });
    expect((await control(sandbox, 'GET', `/requests/counts?since=${since}`)).body.total).toBe(1);
    const iso = new Date(since + 1000).toISOString();
    expect((await control(sandbox, 'GET', `/requests/counts?since=${iso}`)).body.total).toBe(0);
    expect(
      (await control(sandbox, 'GET', `/requests/counts?token=${OTHER_TOKEN}`)).body.byEndpoint,
    ).toEqual({ 'GET /shipments/{reference}': 1 });
    expect((await control(sandbox, 'GET', '/requests/counts?since=soon')).status).toBe(400);
  });

  it('starts again from zero once the log is reset', async () => {
    sandbox = await startPartnerSandbox();
    await traffic();
    sandbox.resetRequestLog();
    expect(sandbox.requestCounts()).toEqual({ total: 0, byEndpoint: {}, byEndpointAndStatus: {} });
    await call(sandbox, 'GET', '/shipments');
    expect((await control(sandbox, 'DELETE', '/requests')).status).toBe(204);
    expect((await control(sandbox, 'GET', '/requests/counts')).body.total).toBe(0);
  });
});

describe('endpointOf', () => {
  it.each([
    ['GET', '/api/v1/shipments', 'GET /shipments'],
    ['POST', '/api/v1/shipments', 'POST /shipments'],
    ['POST', '/api/v1/token', 'POST /token'],
    ['GET', '/api/v1/shipments/1001', 'GET /shipments/{reference}'],
    ['GET', '/api/v1/shipments/%231001%2FA', 'GET /shipments/{reference}'],
    ['GET', '/api/v1/shipments/a/b', 'GET /shipments/a/b'],
    ['GET', '/api/v1/quotes', 'GET /quotes'],
    ['GET', '/api/v1', 'GET /'],
  ])('%s %s is %s', (method, path, endpoint) => {
    expect(endpointOf({ method, path })).toBe(endpoint);
  });
});
