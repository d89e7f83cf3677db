import { afterEach, describe, expect, it } from 'vitest';
import { trackingRecordSchema } from '../../src/partner/schemas.js';
import { type PartnerSandbox, startPartnerSandbox } from '../../src/sandbox/partner/index.js';
import { call, control, OTHER_EMAIL, OTHER_TOKEN, validShipment } from './helpers.js';

let sandbox: PartnerSandbox;
let now = new Date('2026-11-22T09:00:00Z');
afterEach(async () => {
  await sandbox?.close();
});

async function startWith(...references: string[]) {
  now = new Date('2026-11-22T09:00:00Z');
  sandbox = await startPartnerSandbox({ clock: () => now });
  for (const reference of references) {
    expect(
      (await call(sandbox, 'POST', '/shipments', { body: validShipment(reference) })).status,
    ).toBe(201);
  }
}
const track = async (reference: string, token?: string) =>
  (await call(sandbox, 'GET', `/shipments/${encodeURIComponent(reference)}`, { token })).body;
const statuses = (record: { history: { status: string }[] }) => record.history.map((h) => h.status);

describe('choosing the carrier on advance', () => {
  it('hands over to the named carrier with the given tracking number', async () => {
    await startWith('a-1');
    now = new Date('2026-11-23T08:00:00Z');
    const shipped = await control(sandbox, 'POST', '/shipments/a-1/advance', {
      status: 'shipped',
      carrier: 'GLS',
      tracking_number: 'GLS-123456',
    });
    expect(shipped.status).toBe(200);
    expect(shipped.body).toMatchObject({
      status: 'shipped',
      carrier: 'GLS',
      tracking_number: 'GLS-123456',
      updated_at: '2026-11-23T09:00:00+01:00',
    });
    expect(statuses(shipped.body)).toEqual(['pending', 'processing', 'shipped']);
    expect(await track('a-1')).toEqual(shipped.body);
    expect(trackingRecordSchema.safeParse(shipped.body).success).toBe(true);
  });

  it('keeps the default PostNord and generated number when none is named', async () => {
    await startWith('a-2', 'a-3');
    const record = sandbox.advance('a-2', 'shipped');
    expect(record.carrier).toBe('PostNord');
    expect(record.tracking_number).toMatch(/^\d{20}$/);
    // Only a carrier: the number is still generated.
    const gls = sandbox.advance('a-3', 'shipped', { carrier: 'GLS' });
    expect(gls.carrier).toBe('GLS');
    expect(gls.tracking_number).toMatch(/^\d{20}$/);
  });

  it('takes the account and the carrier together in the options', async () => {
    await startWith('dup');
    await call(sandbox, 'POST', '/shipments', { token: OTHER_TOKEN, body: validShipment('dup') });
    const record = sandbox.advance('dup', 'shipped', {
      account: OTHER_EMAIL,
      carrier: 'DAO',
      trackingNumber: 'DAO-1',
    });
    expect(record).toMatchObject({ carrier: 'DAO', tracking_number: 'DAO-1' });
    expect(await track('dup', OTHER_TOKEN)).toMatchObject({ carrier: 'DAO' });
    expect(await track('dup')).toMatchObject({ status: 'pending', carrier: null });
    // The account alone, as before.
    expect(sandbox.advance('dup', undefined, OTHER_EMAIL).status).toBe('delivered');
  });

  it('refuses a blank carrier and leaves the shipment as it was', async () => {
    await startWith('a-4');
    const answer = await control(sandbox, 'POST', '/shipments/a-4/advance', {
      status: 'shipped',
      carrier: ' ',
    });
    expect(answer.status).toBe(400);
    expect(() => sandbox.advance('a-4', 'shipped', { trackingNumber: '' })).toThrow(/non-blank/);
    expect(await track('a-4')).toMatchObject({ status: 'pending', carrier: null });
  });
});

describe('POST /_sandbox/shipments/{reference}/tracking', () => {
  it('sets a new carrier and tracking number, moving updated_at but adding no history', async () => {
    await startWith('t-1');
    now = new Date('2026-11-23T08:00:00Z');
    sandbox.advance('t-1', 'shipped');
    now = new Date('2026-11-24T10:30:00Z');
    const answer = await control(sandbox, 'POST', '/shipments/t-1/tracking', {
      carrier: 'GLS',
      tracking_number: 'GLS-999',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'shipped',
      carrier: 'GLS',
      tracking_number: 'GLS-999',
      updated_at: '2026-11-24T11:30:00+01:00',
    });
    expect(answer.body.history).toEqual([
      { status: 'pending', occurred_at: '2026-11-22T10:00:00+01:00' },
      { status: 'processing', occurred_at: '2026-11-23T09:00:00+01:00' },
      { status: 'shipped', occurred_at: '2026-11-23T09:00:00+01:00' },
    ]);
    // The API shows the change, in the record and in the list.
    expect(await track('t-1')).toEqual(answer.body);
    expect((await call(sandbox, 'GET', '/shipments')).body.data[0].updated_at).toBe(
      '2026-11-24T11:30:00+01:00',
    );
  });

  it('re-labels the parcel alone, keeping the carrier', async () => {
    await startWith('t-2');
    sandbox.advance('t-2', 'shipped');
    now = new Date('2026-11-25T09:00:00Z');
    const record = sandbox.setTracking('t-2', { trackingNumber: '00370730000000000999' });
    expect(record).toMatchObject({
      carrier: 'PostNord',
      tracking_number: '00370730000000000999',
      updated_at: '2026-11-25T10:00:00+01:00',
    });
  });

  it('can name a carrier before the shipment is shipped', async () => {
    await startWith('t-3');
    now = new Date('2026-11-22T12:00:00Z');
    expect(sandbox.setTracking('t-3', { carrier: 'Bring' })).toMatchObject({
      status: 'pending',
      carrier: 'Bring',
      tracking_number: null,
      updated_at: '2026-11-22T13:00:00+01:00',
    });
    // Shipping later keeps the carrier the provider booked and gives the parcel a number.
    const shipped = sandbox.advance('t-3', 'shipped');
    expect(shipped.carrier).toBe('Bring');
    expect(shipped.tracking_number).toMatch(/^\d{20}$/);
  });

  it('changes nothing, updated_at included, when the values are the ones it has', async () => {
    await startWith('t-4');
    sandbox.advance('t-4', 'shipped', { carrier: 'GLS', trackingNumber: 'G-1' });
    const before = await track('t-4');
    now = new Date('2026-11-30T09:00:00Z');
    expect(sandbox.setTracking('t-4', { carrier: 'GLS', trackingNumber: 'G-1' })).toEqual(before);
  });

  it('refuses an empty change, blank values, a finished shipment and an unknown reference', async () => {
    await startWith('t-5', 't-6');
    sandbox.advance('t-6', 'delivered');
    const cases: [string, unknown, number][] = [
      ['t-5', {}, 400],
      ['t-5', undefined, 400],
      ['t-5', { carrier: '' }, 400],
      ['t-5', { tracking_number: 42 }, 400],
      ['t-6', { carrier: 'GLS' }, 409],
      ['nope', { carrier: 'GLS' }, 404],
    ];
    for (const [reference, body, status] of cases) {
      const answer = await control(sandbox, 'POST', `/shipments/${reference}/tracking`, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.body).toEqual({ success: false, message: expect.any(String) });
    }
    expect(() => sandbox.setTracking('t-5', {})).toThrow(/carrier/);
    expect(await track('t-5')).toMatchObject({ carrier: null, tracking_number: null });
  });
});
