import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import type { ShipmentRequest } from '../../src/domain/shipment-contract.js';
import { PartnerClient, parseRetryAfterMs } from '../../src/partner/client.js';
import {
  isRetryablePartnerError,
  PartnerAuthError,
  PartnerBudgetExhaustedError,
  PartnerNetworkError,
  PartnerNotFoundError,
  PartnerRateLimitedError,
  PartnerServerError,
  PartnerUnexpectedResponseError,
  PartnerUrlMisconfiguredError,
  PartnerValidationError,
} from '../../src/partner/errors.js';
import type {
  ConfirmOutcome,
  GateDecision,
  RequestGate,
  RequestPriority,
} from '../../src/partner/gate.js';

const BASE = 'https://partner.test/api/v1';
const TOKEN = 'tok_secret_123';

function client(extra: Partial<ConstructorParameters<typeof PartnerClient>[0]> = {}) {
  return new PartnerClient({ baseUrl: BASE, token: TOKEN, timeoutMs: 500, ...extra });
}

const api = () =>
  nock('https://partner.test', {
    reqheaders: {
      authorization: `Bearer ${TOKEN}`,
      accept: 'application/json',
    },
  });

const request: ShipmentRequest = {
  reference: '5551234',
  order_type: 'package',
  content_description: 'Shoes',
  sender: {
    name: 'Warehouse',
    phone: '+4511111111',
    company_name: 'Shop ApS',
    address: { street: 'Lagervej 1', city: 'Kolding', postal_code: '6000', country_code: 'DK' },
  },
  receiver: {
    name: 'Buyer',
    phone: '+4522222222',
    address: { street: 'Gade 2', city: 'Aarhus', postal_code: '8000', country_code: 'DK' },
  },
  packages: [{ quantity: 1, weight_kg: 1.2, length_cm: 30, width_cm: 20, height_cm: 10 }],
};

const created = {
  reference: '5551234',
  order_number: 'PS-000042',
  status: 'pending',
  created_at: '2026-11-22T14:05:09+01:00',
};

const tracking = {
  reference: '5551234',
  order_number: 'PS-000042',
  status: 'shipped',
  status_label: 'Shipped',
  carrier: 'PostNord',
  tracking_number: '00370712345678',
  updated_at: '2026-11-23T09:00:00+01:00',
  history: [
    { status: 'pending', occurred_at: '2026-11-22T14:05:09+01:00' },
    { status: 'shipped', occurred_at: '2026-11-23T09:00:00+01:00' },
  ],
};

afterEach(() => {
  expect(nock.pendingMocks()).toEqual([]);
  nock.cleanAll();
});

describe('createShipment', () => {
  it('posts the request as JSON with the bearer token and reports a new shipment on 201', async () => {
    let sent: Record<string, unknown> | undefined;
    api()
      .matchHeader('content-type', /application\/json/)
      .post('/api/v1/shipments', (body) => {
        sent = body;
        return true;
      })
      .reply(201, created);

    const result = await client().createShipment(request);

    expect(result).toEqual({ created: true, shipment: created });
    expect(sent).toEqual(request);
  });

  it('reports an existing shipment on 200 (the reference was already registered)', async () => {
    api().post('/api/v1/shipments').reply(200, created);
    const result = await client().createShipment(request);
    expect(result.created).toBe(false);
    expect(result.shipment.order_number).toBe('PS-000042');
  });

  it('never sends pricing fields or account ids, whatever the caller passes', async () => {
    let sent: Record<string, unknown> = {};
    api()
      .post('/api/v1/shipments', (body) => {
        sent = body;
        return true;
      })
      .reply(201, created);
    const polluted = {
      ...request,
      pricing: { total: 10 },
      total_price: 99,
      account_id: 7,
      packages: [{ ...request.packages[0], unit_price: 5 }],
    } as unknown as ShipmentRequest;

    await client().createShipment(polluted);

    const text = JSON.stringify(sent);
    expect(text).not.toMatch(/pricing|unit_price|total_price|account_id/);
  });

  it('refuses a request outside the API limits before sending anything', async () => {
    const heavy = {
      ...request,
      packages: [{ ...request.packages[0]!, weight_kg: 31 }],
    };
    const error = await client()
      .createShipment(heavy)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerValidationError);
    expect(error.fieldErrors['packages.0.weight_kg']).toHaveLength(1);
    expect(error.status).toBeUndefined();
  });

  it('refuses a country code ISO 3166-1 does not assign, before sending anything', async () => {
    const nowhere = {
      ...request,
      receiver: {
        ...request.receiver,
        address: { ...request.receiver.address, country_code: 'ZZ' },
      },
    };
    const error = await client()
      .createShipment(nowhere)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerValidationError);
    expect(Object.keys(error.fieldErrors)).toEqual(['receiver.address.country_code']);
  });

  it('reports the document weight limit beside a missing field, like the API', async () => {
    const document = {
      ...request,
      order_type: 'document',
      content_description: undefined,
      packages: [{ ...request.packages[0]!, weight_kg: 2.5 }],
    } as unknown as ShipmentRequest;
    const error = await client()
      .createShipment(document)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerValidationError);
    expect(Object.keys(error.fieldErrors).sort()).toEqual([
      'content_description',
      'packages.0.weight_kg',
    ]);
  });

  it('counts the reference in characters: 255 emoji pass, 256 do not', async () => {
    api().post('/api/v1/shipments').reply(201, created);
    await client().createShipment({ ...request, reference: '📦'.repeat(255) });
    const error = await client()
      .createShipment({ ...request, reference: '📦'.repeat(256) })
      .catch((e) => e);
    expect(Object.keys(error.fieldErrors)).toEqual(['reference']);
  });

  it('keeps a status it does not know as a string', async () => {
    api()
      .post('/api/v1/shipments')
      .reply(201, { ...created, status: 'awaiting_customs' });
    const result = await client().createShipment(request);
    expect(result.shipment.status).toBe('awaiting_customs');
  });

  it('maps 401 to PartnerAuthError', async () => {
    api().post('/api/v1/shipments').reply(401, { success: false, message: 'Unauthenticated.' });
    const error = await client()
      .createShipment(request)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerAuthError);
    expect(error.status).toBe(401);
    expect(error.message).not.toContain(TOKEN);
    expect(isRetryablePartnerError(error)).toBe(false);
  });

  it('maps 422 to PartnerValidationError with the field map exactly as sent', async () => {
    const errors = {
      'receiver.address.postal_code': ['The receiver.address.postal code field is required.'],
      'packages.0.weight_kg': ['The weight may not be greater than 30.', 'Second message.'],
    };
    api()
      .post('/api/v1/shipments')
      .reply(422, { success: false, message: 'The given data was invalid.', errors });
    const error = await client()
      .createShipment(request)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerValidationError);
    expect(error.fieldErrors).toEqual(errors);
    expect(error.status).toBe(422);
    expect(error.message).toContain('The given data was invalid.');
  });

  it('maps a 422 without field errors to an unexpected response', async () => {
    api().post('/api/v1/shipments').reply(422, { oops: true });
    const error = await client()
      .createShipment(request)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerUnexpectedResponseError);
    expect(error.status).toBe(422);
  });

  it('maps 429 to PartnerRateLimitedError with Retry-After in milliseconds', async () => {
    api()
      .post('/api/v1/shipments')
      .reply(429, { success: false, message: 'Too Many Attempts.' }, { 'Retry-After': '17' });
    const error = await client()
      .createShipment(request)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerRateLimitedError);
    expect(error.retryAfterMs).toBe(17_000);
    expect(error.waitMs).toBe(17_000);
    expect(error.retryAfterFromHeader).toBe(true);
  });

  it('applies the default wait to a 429 without Retry-After', async () => {
    api().post('/api/v1/shipments').reply(429, { success: false, message: 'Too Many Attempts.' });
    const error = await client({ retryAfterDefaultMs: 45_000 })
      .createShipment(request)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerRateLimitedError);
    expect(error.retryAfterMs).toBe(45_000);
    expect(error.retryAfterFromHeader).toBe(false);
  });

  it.each([500, 502, 503])('maps %i to a retryable PartnerServerError', async (status) => {
    api().post('/api/v1/shipments').reply(status, 'upstream broke');
    const error = await client()
      .createShipment(request)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerServerError);
    expect(error.status).toBe(status);
    expect(isRetryablePartnerError(error)).toBe(true);
  });

  it.each([
    '2026-11-22T14:05:09+0100',
    '2026-11-22T14:05+01:00',
    '2026-11-22T13:05:09.250Z',
    '20261122T140509+0100',
  ])('reads a created_at written as %s, and keeps it as sent', async (createdAt) => {
    api()
      .post('/api/v1/shipments')
      .reply(201, { ...created, created_at: createdAt });
    const result = await client().createShipment(request);
    expect(result).toEqual({ created: true, shipment: { ...created, created_at: createdAt } });
  });

  it('keeps the order number of a 201 whose other fields do not match the contract', async () => {
    api()
      .post('/api/v1/shipments')
      .reply(201, { order_number: 'PS-000042', status: 7, created_at: 'just now' });
    const result = await client().createShipment(request);
    // No look-up: the order number is what registration needs.
    expect(result).toEqual({
      created: true,
      shipment: { reference: '5551234', order_number: 'PS-000042' },
    });
  });

  it.each([
    ['is not JSON', '<html>gateway</html>'],
    ['is truncated', '{"reference": "5551'],
    ['has no order number', JSON.stringify({ reference: '5551234', status: 'pending' })],
    ['is empty', ''],
  ])('looks up a shipment whose 201 body %s: the 201 proves it exists', async (_what, body) => {
    api().post('/api/v1/shipments').reply(201, body);
    api().get('/api/v1/shipments/5551234').reply(200, tracking);
    const result = await client().createShipment(request);
    expect(result).toEqual({
      created: true,
      shipment: {
        reference: '5551234',
        order_number: 'PS-000042',
        status: 'shipped',
        created_at: '2026-11-22T14:05:09+01:00',
      },
    });
  });

  it('looks up a shipment whose 200 body cannot be read, and reports it as existing', async () => {
    api().post('/api/v1/shipments').reply(200, 'oops');
    api().get('/api/v1/shipments/5551234').reply(200, tracking);
    const result = await client().createShipment(request);
    expect(result.created).toBe(false);
    expect(result.shipment.order_number).toBe('PS-000042');
  });

  it('keeps the order number of a look-up whose other fields do not match the contract', async () => {
    api().post('/api/v1/shipments').reply(201, 'oops');
    api()
      .get('/api/v1/shipments/5551234')
      .reply(200, { order_number: 'PS-000042', status: 'pending', history: 'none' });
    const result = await client().createShipment(request);
    expect(result.shipment).toEqual({
      reference: '5551234',
      order_number: 'PS-000042',
      status: 'pending',
    });
  });

  it('retries, never refuses, a 201 when neither it nor the look-up can be read', async () => {
    api().post('/api/v1/shipments').reply(201, 'oops');
    api().get('/api/v1/shipments/5551234').reply(200, { status: 'pending' });
    const error = await client()
      .createShipment(request)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerUnexpectedResponseError);
    expect(isRetryablePartnerError(error)).toBe(true);
    expect(error.message).toContain('so the shipment exists');
    expect(error.message).toContain('do not create it by hand');
  });

  it.each([
    ['', 'the body is empty'],
    ['<!DOCTYPE html><h1>502</h1>', 'the body is not JSON (HTML or XML, 27 bytes)'],
    ['{"data": [', 'the body is not JSON (JSON cut off or broken, 10 bytes)'],
  ])('says what an unreadable 200 was, without its content: %j', async (body, reason) => {
    api().get('/api/v1/shipments').query(true).reply(200, body);
    const error = await client()
      .listShipments({})
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerUnexpectedResponseError);
    expect(error.message).toContain(`does not match the contract (${reason})`);
  });

  it('retries a 201 whose look-up finds nothing (yet), rather than calling the order unknown', async () => {
    api().post('/api/v1/shipments').reply(201, 'oops');
    api().get('/api/v1/shipments/5551234').reply(404, { success: false, message: 'Not found.' });
    const error = await client()
      .createShipment(request)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerUnexpectedResponseError);
    expect(error.cause).toBeInstanceOf(PartnerNotFoundError);
    expect(isRetryablePartnerError(error)).toBe(true);
  });

  it('maps an undocumented 4xx to a final unexpected response', async () => {
    api().post('/api/v1/shipments').reply(413, { success: false, message: 'Too large.' });
    const error = await client()
      .createShipment(request)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerUnexpectedResponseError);
    expect(error.message).toContain('Too large.');
    expect(isRetryablePartnerError(error)).toBe(false);
  });

  it('maps a refused connection to a retryable PartnerNetworkError', async () => {
    // Port 1 on loopback: nothing listens there.
    const error = await client({ baseUrl: 'http://127.0.0.1:1/api/v1' })
      .createShipment(request)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerNetworkError);
    expect(error.code).toBe('ECONNREFUSED');
    expect(isRetryablePartnerError(error)).toBe(true);
  });

  it('maps a timeout to PartnerNetworkError and does not retry by itself', async () => {
    const scope = api().post('/api/v1/shipments').delay(1_000).reply(201, created);
    const error = await client({ timeoutMs: 100 })
      .createShipment(request)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerNetworkError);
    expect(error.code).toBe('ETIMEDOUT');
    expect(error.message).toContain('in time');
    expect(scope.isDone()).toBe(true);
  });
});

describe('getShipment', () => {
  it('reads the tracking record and keeps timestamp offsets', async () => {
    api().get('/api/v1/shipments/5551234').reply(200, tracking);
    const record = await client().getShipment('5551234');
    expect(record).toEqual(tracking);
    expect(record.updated_at).toBe('2026-11-23T09:00:00+01:00');
  });

  it('escapes the reference in the path', async () => {
    api()
      .get('/api/v1/shipments/a%2Fb%20c')
      .reply(200, { ...tracking, reference: 'a/b c' });
    const record = await client().getShipment('a/b c');
    expect(record.reference).toBe('a/b c');
  });

  it('maps 404 to PartnerNotFoundError', async () => {
    api().get('/api/v1/shipments/999').reply(404, { success: false, message: 'Not found.' });
    const error = await client()
      .getShipment('999')
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerNotFoundError);
    expect(isRetryablePartnerError(error)).toBe(false);
  });

  it('takes a 404 from a route the API always has, or an HTML 404, as a misconfigured PARTNER_API_URL, never as "no such shipment"', async () => {
    const html = '<!doctype html><title>Not Found</title>';
    api()
      .get('/api/v1/shipments')
      .query(true)
      .reply(404, { success: false, message: 'Not found.' });
    api().post('/api/v1/shipments').reply(404, html, { 'content-type': 'text/html' });
    api().get('/api/v1/shipments/7').reply(404, html, { 'content-type': 'text/html' });
    nock('https://partner.test').post('/api/v1/token').reply(404, html);

    const errors = [
      await client()
        .listShipments({ perPage: 1 })
        .catch((e) => e),
      await client()
        .createShipment(request)
        .catch((e) => e),
      await client()
        .getShipment('7')
        .catch((e) => e),
      await client()
        .exchangeToken({ email: 'a@b.c', password: 'x', name: 'n' })
        .catch((e) => e),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(PartnerUrlMisconfiguredError);
      expect(error.message).toMatch(/PARTNER_API_URL is misconfigured.*\/api\/v1/);
      expect(error.message).not.toMatch(/no such shipment/);
      expect(isRetryablePartnerError(error)).toBe(false);
    }
  });

  it.each([
    [401, PartnerAuthError],
    [429, PartnerRateLimitedError],
    [500, PartnerServerError],
  ])('maps %i', async (status, type) => {
    api().get('/api/v1/shipments/1').reply(status, { success: false, message: 'x' });
    await expect(client().getShipment('1')).rejects.toBeInstanceOf(type);
  });

  it('reads timestamps in any ISO 8601 form', async () => {
    const record = {
      ...tracking,
      updated_at: '2026-11-23T09:00+0100',
      history: [{ status: 'pending', occurred_at: '2026-11-22T13:05:09Z' }],
    };
    api().get('/api/v1/shipments/5551234').reply(200, record);
    expect(await client().getShipment('5551234')).toEqual(record);
  });

  it('rejects a tracking record without history', async () => {
    const { history: _history, ...broken } = tracking;
    api().get('/api/v1/shipments/5551234').reply(200, broken);
    await expect(client().getShipment('5551234')).rejects.toBeInstanceOf(
      PartnerUnexpectedResponseError,
    );
  });
});

describe('listShipments', () => {
  const envelope = {
    data: [
      {
        reference: '2',
        order_number: 'PS-2',
        status: 'in_customs',
        updated_at: '2026-07-02T10:00:00+02:00',
      },
    ],
    meta: { page: 2, per_page: 200, total: 201 },
  };

  it('sends created_after with the Copenhagen offset, and the paging parameters', async () => {
    api()
      .get('/api/v1/shipments')
      .query({
        status: 'shipped',
        created_after: '2026-07-01T12:00:00+02:00',
        per_page: '200',
        page: '2',
      })
      .reply(200, envelope);
    const page = await client().listShipments({
      status: 'shipped',
      createdAfter: new Date('2026-07-01T10:00:00Z'),
      perPage: 200,
      page: 2,
    });
    expect(page.meta.total).toBe(201);
    expect(page.data[0]?.status).toBe('in_customs');
  });

  it('sends no query when none is given', async () => {
    api().get('/api/v1/shipments').query({}).reply(200, envelope);
    await client().listShipments();
  });

  it('rejects an envelope without meta', async () => {
    api().get('/api/v1/shipments').reply(200, { data: [] });
    await expect(client().listShipments()).rejects.toBeInstanceOf(PartnerUnexpectedResponseError);
  });

  it.each([
    [401, PartnerAuthError],
    [429, PartnerRateLimitedError],
    [503, PartnerServerError],
  ])('maps %i', async (status, type) => {
    api().get('/api/v1/shipments').reply(status, { success: false, message: 'x' });
    await expect(client().listShipments()).rejects.toBeInstanceOf(type);
  });
});

describe('exchangeToken', () => {
  const credentials = { email: 'a@b.dk', password: 'pw-secret', name: 'connector' };

  it('posts the credentials without a bearer token and returns the token record', async () => {
    const record = {
      token: 'new_token',
      token_type: 'Bearer',
      account: 'Demo',
      created_at: '2026-11-22T10:00:00+01:00',
    };
    nock('https://partner.test', { badheaders: ['authorization'] })
      .post('/api/v1/token', credentials)
      .reply(201, record);
    const result = await new PartnerClient({ baseUrl: BASE }).exchangeToken(credentials);
    expect(result).toEqual(record);
  });

  it('maps wrong credentials to PartnerAuthError without echoing the password', async () => {
    nock('https://partner.test').post('/api/v1/token').reply(401, { success: false, message: 'x' });
    const error = await new PartnerClient({ baseUrl: BASE })
      .exchangeToken(credentials)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerAuthError);
    expect(error.message).toContain('credentials');
    expect(error.message).not.toContain('pw-secret');
  });

  it('maps the lockout to PartnerRateLimitedError', async () => {
    nock('https://partner.test')
      .post('/api/v1/token')
      .reply(429, { success: false, message: 'Locked.' }, { 'Retry-After': '60' });
    const error = await new PartnerClient({ baseUrl: BASE })
      .exchangeToken(credentials)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerRateLimitedError);
    expect(error.retryAfterMs).toBe(60_000);
  });

  it('rejects a token record without a token', async () => {
    nock('https://partner.test')
      .post('/api/v1/token')
      .reply(201, { token_type: 'Bearer', account: 'x', created_at: '2026-11-22T10:00:00+01:00' });
    await expect(
      new PartnerClient({ baseUrl: BASE }).exchangeToken(credentials),
    ).rejects.toBeInstanceOf(PartnerUnexpectedResponseError);
  });
});

describe('the request gate', () => {
  class RecordingGate implements RequestGate {
    taken: RequestPriority[] = [];
    blocks: number[] = [];
    constructor(public decision: GateDecision) {}
    async take(priority: RequestPriority) {
      this.taken.push(priority);
      return this.decision;
    }
    async block(ms: number) {
      this.blocks.push(ms);
    }
  }

  class SlotGate extends RecordingGate {
    confirmed: string[] = [];
    released: string[] = [];
    /** What `confirm` answers, in turn; then 'moved'. */
    confirmOutcomes: ConfirmOutcome[] = [];
    blockedMs = 0;
    async confirm(slot: string) {
      this.confirmed.push(slot);
      return this.confirmOutcomes.shift() ?? 'moved';
    }
    async blockedForMs() {
      return this.blockedMs;
    }
    async release(slot: string) {
      this.released.push(slot);
    }
  }

  it('sends a create in the place taken ahead, once, and gives back only an unused place', async () => {
    const gate = new SlotGate({ granted: true, slot: 'place-1' });
    api().post('/api/v1/shipments').reply(201, created);
    const partner = client({ gate });
    const slot = await partner.reserveCreate();
    await partner.createShipment(request, { slot });
    await slot.release();
    expect(gate.taken).toEqual(['create']);
    expect(gate.confirmed).toEqual(['place-1']);
    expect(gate.released).toEqual([]);

    const unused = await partner.reserveCreate();
    await unused.release();
    await unused.release();
    expect(gate.released).toEqual(['place-1']);
  });

  it('holds a request whose place a 429 blocked since it was taken, until a short block ends', async () => {
    const gate = new SlotGate({ granted: true, slot: 'place-1' });
    gate.confirmOutcomes = ['blocked', 'blocked'];
    gate.blockedMs = 20;
    const scope = api().post('/api/v1/shipments').reply(201, created);
    const partner = client({ gate });
    const slot = await partner.reserveCreate();
    await partner.createShipment(request, { slot });
    expect(scope.isDone()).toBe(true);
    expect(gate.confirmed).toEqual(['place-1', 'place-1', 'place-1']);
    expect(gate.taken).toEqual(['create']);
    expect(gate.released).toEqual([]);
  });

  it('gives the place back and sends nothing when the block outlasts what a worker may hold', async () => {
    const gate = new SlotGate({ granted: true, slot: 'place-1' });
    gate.confirmOutcomes = ['blocked'];
    gate.blockedMs = 45_000;
    const partner = client({ gate });
    const slot = await partner.reserveCreate();
    gate.decision = { granted: false, waitMs: 45_000 };
    const error = await partner.createShipment(request, { slot }).catch((e) => e);
    expect(error).toBeInstanceOf(PartnerBudgetExhaustedError);
    expect(error.waitMs).toBe(45_000);
    expect(gate.released).toEqual(['place-1']);
  });

  it('says at once when no place can be taken ahead, and how long to wait', async () => {
    const gate = new SlotGate({ granted: false, waitMs: 2_000 });
    const error = await client({ gate })
      .reserveCreate()
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerBudgetExhaustedError);
    expect(error.waitMs).toBe(2_000);
  });

  it('takes the look-up of an unreadable create answer from the budget as a create', async () => {
    const gate = new RecordingGate({ granted: true });
    api().post('/api/v1/shipments').reply(201, 'oops');
    api().get('/api/v1/shipments/5551234').reply(200, tracking);
    await client({ gate }).createShipment(request);
    expect(gate.taken).toEqual(['create', 'create']);
  });

  it('asks the gate before each request, with the priority of the call', async () => {
    const gate = new RecordingGate({ granted: true });
    api().post('/api/v1/shipments').reply(201, created);
    api().get('/api/v1/shipments/5551234').reply(200, tracking);
    await client({ gate }).createShipment(request);
    await client({ gate }).getShipment('5551234');
    expect(gate.taken).toEqual(['create', 'sync']);
  });

  it('sends nothing when the budget is spent and says how long to wait', async () => {
    const gate = new RecordingGate({ granted: false, waitMs: 1_234 });
    const error = await client({ gate })
      .createShipment(request)
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerBudgetExhaustedError);
    expect(error.waitMs).toBe(1_234);
    // afterEach asserts no interceptor was consumed; none was defined, and net connect is off.
  });

  it('says a create request is leaving only once the budget granted it, before it is sent', async () => {
    const gate = new RecordingGate({ granted: true });
    const events: string[] = [];
    api()
      .post('/api/v1/shipments')
      .reply(201, () => {
        events.push('request arrived');
        return created;
      });
    await client({ gate }).createShipment(request, {
      onSending: async () => {
        events.push(`sending (budget taken: ${gate.taken.length})`);
      },
    });
    expect(events).toEqual(['sending (budget taken: 1)', 'request arrived']);
  });

  it('never says a create request is leaving when the budget held it back', async () => {
    const gate = new RecordingGate({ granted: false, waitMs: 500 });
    let sending = 0;
    const error = await client({ gate })
      .createShipment(request, {
        onSending: async () => {
          sending++;
        },
      })
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerBudgetExhaustedError);
    expect(sending).toBe(0);
  });

  it('sends nothing when saying so fails', async () => {
    const gate = new RecordingGate({ granted: true });
    const failure = new Error('Redis is gone');
    await expect(
      client({ gate }).createShipment(request, {
        onSending: async () => {
          throw failure;
        },
      }),
    ).rejects.toBe(failure);
    // afterEach asserts no interceptor was consumed; none was defined, and net connect is off.
  });

  it('blocks the gate for Retry-After on a 429', async () => {
    const gate = new RecordingGate({ granted: true });
    api().get('/api/v1/shipments').reply(429, {}, { 'Retry-After': '3' });
    await expect(client({ gate }).listShipments()).rejects.toBeInstanceOf(PartnerRateLimitedError);
    expect(gate.blocks).toEqual([3_000]);
  });

  it('caps a Retry-After longer than retryAfterMaxMs, blocking and waiting only that long', async () => {
    const gate = new RecordingGate({ granted: true });
    api().get('/api/v1/shipments').reply(429, {}, { 'Retry-After': '7200' });
    const error = await client({ gate, retryAfterMaxMs: 60_000 })
      .listShipments()
      .catch((e) => e);
    expect(error).toBeInstanceOf(PartnerRateLimitedError);
    expect(error.waitMs).toBe(60_000);
    expect(gate.blocks).toEqual([60_000]);
  });

  it('does not take from the budget to exchange a token', async () => {
    const gate = new RecordingGate({ granted: false, waitMs: 10 });
    nock('https://partner.test').post('/api/v1/token').reply(201, {
      token: 't',
      token_type: 'Bearer',
      account: 'x',
      created_at: '2026-11-22T10:00:00+01:00',
    });
    await new PartnerClient({ baseUrl: BASE, gate }).exchangeToken({
      email: 'a',
      password: 'b',
      name: 'c',
    });
    expect(gate.taken).toEqual([]);
  });
});

describe('parseRetryAfterMs', () => {
  it('reads seconds', () => {
    expect(parseRetryAfterMs('5')).toBe(5_000);
    expect(parseRetryAfterMs(' 0 ')).toBe(0);
  });
  it('reads an HTTP date', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfterMs('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
  });
  it('returns undefined for a missing or unusable value', () => {
    expect(parseRetryAfterMs(undefined)).toBeUndefined();
    expect(parseRetryAfterMs('')).toBeUndefined();
    expect(parseRetryAfterMs('soon')).toBeUndefined();
  });
});
