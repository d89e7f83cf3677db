import { afterEach, describe, expect, it } from 'vitest';
import {
  createResponseSchema,
  listEnvelopeSchema,
  tokenRecordSchema,
  trackingRecordSchema,
} from '../../src/partner/schemas.js';
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
  sleep,
  validShipment,
} from './helpers.js';

let sandbox: PartnerSandbox;
const start = async (options: PartnerSandboxOptions = {}) => {
  sandbox = await startPartnerSandbox(options);
};
afterEach(async () => {
  await sandbox?.close();
});
const create = (reference: string) =>
  call(sandbox, 'POST', '/shipments', { body: validShipment(reference) });
const track = (reference: string) =>
  call(sandbox, 'GET', `/shipments/${encodeURIComponent(reference)}`);

describe('GET /shipments/{reference}', () => {
  it('answers a new shipment as pending, without carrier or tracking number', async () => {
    await start();
    const created = await create('t-1');
    const answer = await track('t-1');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      reference: 't-1',
      order_number: created.body.order_number,
      status: 'pending',
      status_label: 'Pending',
      carrier: null,
      tracking_number: null,
      updated_at: created.body.created_at,
      history: [{ status: 'pending', occurred_at: created.body.created_at }],
    });
    expect(trackingRecordSchema.safeParse(answer.body).success).toBe(true);
  });

  it('finds references that need URL encoding', async () => {
    await start();
    await create('#1001/A b');
    expect((await track('#1001/A b')).body.reference).toBe('#1001/A b');
  });

  it('serves references of up to 255 characters, however they are encoded', async () => {
    await start();
    for (const reference of ['r'.repeat(255), '📦'.repeat(255), `${'æ/ '.repeat(85)}`]) {
      expect((await create(reference)).status).toBe(201);
      const answer = await track(reference);
      expect(answer.status).toBe(200);
      expect(answer.body.reference).toBe(reference);
    }
  });

  it('answers 404 for a reference longer than any shipment can have', async () => {
    await start();
    const answer = await track('r'.repeat(256));
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ success: false, message: expect.any(String) });
  });

  it('moves pending → processing → shipped → delivered, setting carrier and tracking at shipped', async () => {
    let now = new Date('2026-11-22T09:00:00Z');
    await start({ clock: () => now });
    await create('t-2');

    now = new Date('2026-11-22T10:00:00Z');
    expect(sandbox.advance('t-2')).toMatchObject({
      status: 'processing',
      carrier: null,
      tracking_number: null,
    });
    now = new Date('2026-11-23T08:30:00Z');
    const shipped = await control(sandbox, 'POST', '/shipments/t-2/advance');
    expect(shipped.status).toBe(200);
    expect(shipped.body).toMatchObject({
      status: 'shipped',
      status_label: 'Shipped',
      carrier: 'PostNord',
    });
    expect(shipped.body.tracking_number).toMatch(/^\d{20}$/);
    now = new Date('2026-11-24T12:00:00Z');
    sandbox.advance('t-2');

    const answer = await track('t-2');
    expect(answer.body).toMatchObject({
      status: 'delivered',
      status_label: 'Delivered',
      carrier: 'PostNord',
      tracking_number: shipped.body.tracking_number,
      updated_at: '2026-11-24T13:00:00+01:00',
    });
    expect(answer.body.history).toEqual([
      { status: 'pending', occurred_at: '2026-11-22T10:00:00+01:00' },
      { status: 'processing', occurred_at: '2026-11-22T11:00:00+01:00' },
      { status: 'shipped', occurred_at: '2026-11-23T09:30:00+01:00' },
      { status: 'delivered', occurred_at: '2026-11-24T13:00:00+01:00' },
    ]);
    // The list shows the new status and updated_at too.
    expect((await call(sandbox, 'GET', '/shipments')).body.data[0]).toMatchObject({
      status: 'delivered',
      updated_at: '2026-11-24T13:00:00+01:00',
    });
  });

  it('walks every step when told to jump to a later status', async () => {
    await start();
    await create('t-3');
    const delivered = await control(sandbox, 'POST', '/shipments/t-3/advance', {
      status: 'delivered',
    });
    expect(delivered.body.history.map((h: { status: string }) => h.status)).toEqual([
      'pending',
      'processing',
      'shipped',
      'delivered',
    ]);
  });

  it('cancels from pending or processing only, and never moves back or past a terminal status', async () => {
    await start();
    await create('c-1');
    await create('c-2');
    await create('c-3');
    expect(sandbox.cancel('c-1').history.map((h) => h.status)).toEqual(['pending', 'cancelled']);
    sandbox.advance('c-2');
    expect((await control(sandbox, 'POST', '/shipments/c-2/cancel')).body).toMatchObject({
      status: 'cancelled',
      status_label: 'Cancelled',
      carrier: null,
    });
    sandbox.advance('c-3', 'shipped');
    expect(() => sandbox.cancel('c-3')).toThrow(/cannot be cancelled/);
    expect((await control(sandbox, 'POST', '/shipments/c-3/cancel')).status).toBe(409);
    expect(() => sandbox.advance('c-3', 'processing')).toThrow(/cannot move back/);
    expect(() => sandbox.advance('c-1')).toThrow(/cannot move any further/);
    expect((await control(sandbox, 'POST', '/shipments/nope/advance')).status).toBe(404);
    expect(
      (await control(sandbox, 'POST', '/shipments/c-3/advance', { status: 'lost' })).status,
    ).toBe(400);
    expect((await track('c-3')).body.status).toBe('shipped');
  });

  it('names the account over the control endpoint when two accounts share a reference', async () => {
    await start();
    await create('dup');
    await call(sandbox, 'POST', '/shipments', {
      token: 'sbx_other_token',
      body: validShipment('dup'),
    });
    expect((await control(sandbox, 'POST', '/shipments/dup/advance')).status).toBe(409);
    const answer = await control(sandbox, 'POST', '/shipments/dup/advance', {
      account: OTHER_EMAIL,
    });
    expect(answer.body.status).toBe('processing');
    expect((await track('dup')).body.status).toBe('pending');
  });
});

describe('automatic advance', () => {
  it('moves a shipment one step per interval until delivered', async () => {
    await start({ autoAdvanceMs: 40 });
    await create('auto-1');
    const seen = new Set<string>();
    const deadline = Date.now() + 2_000;
    while (Date.now() < deadline) {
      const { body } = await track('auto-1');
      seen.add(body.status);
      if (body.status === 'delivered') break;
      await sleep(10);
    }
    const { body } = await track('auto-1');
    expect(body.status).toBe('delivered');
    expect(body.history.map((h: { status: string }) => h.status)).toEqual([
      'pending',
      'processing',
      'shipped',
      'delivered',
    ]);
    expect(body.carrier).toBe('PostNord');
    expect(seen.has('processing') || seen.has('shipped')).toBe(true);
  });

  it('stops following a shipment once it is cancelled', async () => {
    await start({ autoAdvanceMs: 40 });
    await create('auto-2');
    sandbox.cancel('auto-2');
    await sleep(150);
    expect((await track('auto-2')).body.history.map((h: { status: string }) => h.status)).toEqual([
      'pending',
      'cancelled',
    ]);
  });

  it('does not move anything without autoAdvanceMs, nor after close()', async () => {
    await start();
    await create('still');
    await sleep(100);
    expect((await track('still')).body.status).toBe('pending');

    await sandbox.close();
    await start({ autoAdvanceMs: 30 });
    await create('closed');
    await sandbox.close();
    await sleep(120);
    expect(sandbox.shipments()[0]?.status).toBe('pending');
  });
});

describe('timestamps', () => {
  it('writes every timestamp in Copenhagen time with its offset: +01:00 in winter, +02:00 in summer', async () => {
    let now = new Date('2026-07-01T10:00:00Z');
    await start({ clock: () => now });
    const token = await call(sandbox, 'POST', '/token', {
      token: null,
      body: { email: DEMO_EMAIL, password: 'sandbox-password', name: 'x' },
    });
    expect(token.body.created_at).toBe('2026-07-01T12:00:00+02:00');
    const created = await create('tz');
    expect(created.body.created_at).toBe('2026-07-01T12:00:00+02:00');
    now = new Date('2026-12-01T10:00:00Z');
    sandbox.advance('tz');
    const record = (await track('tz')).body;
    expect(record.updated_at).toBe('2026-12-01T11:00:00+01:00');
    for (const stamp of [
      record.updated_at,
      ...record.history.map((h: { occurred_at: string }) => h.occurred_at),
    ]) {
      expect(stamp).toMatch(COPENHAGEN_TIMESTAMP);
    }
    expect((await call(sandbox, 'GET', '/shipments')).body.data[0].updated_at).toBe(
      '2026-12-01T11:00:00+01:00',
    );
  });
});

describe('fault switches and control endpoints', () => {
  it('answers the next API response with a body no schema accepts, then behaves again', async () => {
    await start();
    const created = await create('m-1');
    sandbox.failNextWithMalformedBody();
    const response = await fetch(`${sandbox.url}/shipments/m-1`, {
      headers: { authorization: `Bearer ${DEMO_TOKEN}` },
    });
    expect(response.status).toBe(200);
    const malformed = await response.json();
    for (const schema of [
      trackingRecordSchema,
      createResponseSchema,
      listEnvelopeSchema,
      tokenRecordSchema,
    ]) {
      expect(schema.safeParse(malformed).success).toBe(false);
    }
    expect((await track('m-1')).body.order_number).toBe(created.body.order_number);
  });

  it('can send truncated JSON instead, switched over the control endpoint', async () => {
    await start();
    await control(sandbox, 'POST', '/faults', { malformedNext: 'invalid-json' });
    const response = await fetch(`${sandbox.url}/shipments`, {
      headers: { authorization: `Bearer ${DEMO_TOKEN}` },
    });
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow();
  });

  it('adds the configured latency to API responses', async () => {
    await start({ latencyMs: 120 });
    let began = Date.now();
    await call(sandbox, 'GET', '/shipments');
    expect(Date.now() - began).toBeGreaterThanOrEqual(115);
    sandbox.setLatency(0);
    began = Date.now();
    await call(sandbox, 'GET', '/shipments');
    expect(Date.now() - began).toBeLessThan(100);
    await control(sandbox, 'POST', '/faults', { latencyMs: 80 });
    began = Date.now();
    await call(sandbox, 'GET', '/shipments');
    expect(Date.now() - began).toBeGreaterThanOrEqual(75);
  });

  it('serves control endpoints without a token and only outside /api/v1', async () => {
    await start({ rateLimit: 7, rateWindowMs: 1000 });
    await create('ctl-1');
    const state = await control(sandbox, 'GET', '/');
    expect(state.body.accounts.map((a: { token: string }) => a.token)).toEqual([
      'sbx_demo_token',
      'sbx_other_token',
    ]);
    expect(state.body.rateLimit).toEqual({ limit: 7, windowMs: 1000 });
    const shipments = await control(sandbox, 'GET', `/shipments?account=${DEMO_EMAIL}`);
    expect(shipments.body).toEqual([
      expect.objectContaining({ account: DEMO_EMAIL, reference: 'ctl-1' }),
    ]);
    expect((await control(sandbox, 'GET', `/shipments?account=${OTHER_EMAIL}`)).body).toEqual([]);
    // Under the API prefix the same path is just an unknown, authenticated API route.
    expect((await call(sandbox, 'GET', '/_sandbox/requests', { token: null })).status).toBe(401);
    expect((await call(sandbox, 'GET', '/_sandbox/requests')).status).toBe(404);
    expect(sandbox.url.endsWith('/api/v1')).toBe(true);
    expect(sandbox.controlUrl.endsWith('/_sandbox')).toBe(true);
  });

  it.each([
    ['a URL over 8192 characters', `/shipments/${'r'.repeat(8_200)}`, 414],
    ['a path segment over 8192 characters', `/shipments/${'r'.repeat(9_000)}`, 414],
    ['a malformed escape', '/shipments/%E0%A4%A', 400],
  ])('answers %s with an Error body once the token is accepted', async (_case, path, status) => {
    await start();
    const answer = await call(sandbox, 'GET', path);
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ success: false, message: expect.any(String) });
    expect(sandbox.requests.at(-1)).toMatchObject({ token: DEMO_TOKEN, status });
  });

  it('answers headers over 16 KB with 431 and an Error body', async () => {
    await start();
    const answer = await call(sandbox, 'GET', '/shipments', {
      headers: { 'x-padding': 'p'.repeat(17_000) },
    });
    expect(answer.status).toBe(431);
    expect(answer.body).toEqual({ success: false, message: expect.any(String) });
  });

  it('answers unknown API routes with 404 and an Error body', async () => {
    await start();
    const answer = await call(sandbox, 'GET', '/quotes');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ success: false, message: expect.any(String) });
  });
});
