import { afterEach, describe, expect, it } from 'vitest';
import { listEnvelopeSchema, trackingRecordSchema } from '../../src/partner/schemas.js';
import { type PartnerSandbox, startPartnerSandbox } from '../../src/sandbox/partner/index.js';
import {
  call,
  control,
  DEMO_EMAIL,
  OTHER_EMAIL,
  OTHER_TOKEN,
  sleep,
  validShipment,
} from './helpers.js';

let sandbox: PartnerSandbox;
let now = new Date('2026-11-22T09:00:00Z');
afterEach(async () => {
  await sandbox?.close();
});
const start = async (options: { autoAdvanceMs?: number } = {}) => {
  now = new Date('2026-11-22T09:00:00Z');
  sandbox = await startPartnerSandbox({ clock: () => now, ...options });
};
const list = (query = '', token?: string) => call(sandbox, 'GET', `/shipments${query}`, { token });
const track = (reference: string) => call(sandbox, 'GET', `/shipments/${reference}`);

describe('POST /_sandbox/shipments/seed', () => {
  it('creates shipments as POST /shipments would: order number, created_at, a pending history entry', async () => {
    await start();
    const answer = await control(sandbox, 'POST', '/shipments/seed', { count: 3 });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      account: DEMO_EMAIL,
      count: 3,
      references: ['seed-1', 'seed-2', 'seed-3'],
      first_order_number: 'PS-000001',
      last_order_number: 'PS-000003',
    });
    const record = (await track('seed-2')).body;
    expect(record).toEqual({
      reference: 'seed-2',
      order_number: 'PS-000002',
      status: 'pending',
      status_label: 'Pending',
      carrier: null,
      tracking_number: null,
      updated_at: '2026-11-22T10:00:00+01:00',
      history: [{ status: 'pending', occurred_at: '2026-11-22T10:00:00+01:00' }],
    });
    expect(trackingRecordSchema.safeParse(record).success).toBe(true);
    // The next real create takes the next order number; a repeat of a seeded reference finds it.
    const created = await call(sandbox, 'POST', '/shipments', { body: validShipment('real') });
    expect(created.body.order_number).toBe('PS-000004');
    const repeat = await call(sandbox, 'POST', '/shipments', { body: validShipment('seed-1') });
    expect(repeat.status).toBe(200);
    expect(repeat.body.order_number).toBe('PS-000001');
    expect(sandbox.shipments()[0]?.request).toMatchObject({ reference: 'seed-1' });
  });

  it('makes 10,000 in one call, listed newest first, and uses none of the rate limit', async () => {
    sandbox = await startPartnerSandbox({ rateLimit: 2, rateWindowMs: 60_000 });
    const seeded = sandbox.seedShipments({ count: 10_000, referencePrefix: 'bench-' });
    expect(seeded.count).toBe(10_000);
    expect(seeded.last_order_number).toBe('PS-010000');
    const page = await list('?per_page=200&page=50');
    expect(page.status).toBe(200);
    expect(page.body.meta).toEqual({ page: 50, per_page: 200, total: 10_000 });
    expect(page.body.data.at(-1).reference).toBe('bench-1');
    expect(listEnvelopeSchema.safeParse(page.body).success).toBe(true);
    expect((await list()).body.data[0].reference).toBe('bench-10000');
    expect((await list()).status).toBe(429);
  });

  it('backdates: one instant for all, or spread evenly over a range, oldest first', async () => {
    await start();
    sandbox.seedShipments({
      references: ['before-install'],
      createdAt: new Date('2026-10-01T08:00:00Z'),
    });
    const spread = await control(sandbox, 'POST', '/shipments/seed', {
      count: 5,
      referencePrefix: 'old-',
      createdFrom: '2026-11-01T00:00:00+01:00',
      createdTo: '2026-11-05T00:00:00+01:00',
    });
    expect(spread.status).toBe(201);
    const old = (await track('before-install')).body;
    expect(old.updated_at).toBe('2026-10-01T10:00:00+02:00');
    expect(old.history).toEqual([{ status: 'pending', occurred_at: '2026-10-01T10:00:00+02:00' }]);
    expect((await list()).body.data.map((i: { reference: string }) => i.reference)).toEqual([
      'old-5',
      'old-4',
      'old-3',
      'old-2',
      'old-1',
      'before-install',
    ]);
    expect((await track('old-2')).body.updated_at).toBe('2026-11-02T00:00:00+01:00');
    expect((await track('old-5')).body.updated_at).toBe('2026-11-05T00:00:00+01:00');
    // created_after sees the backdated created_at.
    const after = await list('?created_after=2026-11-03');
    expect(after.body.meta.total).toBe(3);
    // A bare date-time is Copenhagen time, as for created_after.
    sandbox.seedShipments({ references: ['bare'], createdAt: new Date('2026-11-10T08:00:00Z') });
    const bare = await control(sandbox, 'POST', '/shipments/seed', {
      references: ['bare-http'],
      createdAt: '2026-11-10T09:00:00',
    });
    expect(bare.status).toBe(201);
    expect((await track('bare-http')).body.updated_at).toBe('2026-11-10T09:00:00+01:00');
  });

  it('records every step up to the status asked for at the creation instant', async () => {
    await start();
    sandbox.seedShipments({
      count: 2,
      referencePrefix: 'sh-',
      status: 'shipped',
      createdAt: new Date('2026-11-20T09:00:00Z'),
    });
    await control(sandbox, 'POST', '/shipments/seed', {
      references: ['gone'],
      status: 'cancelled',
    });
    const shipped = (await track('sh-2')).body;
    expect(shipped).toMatchObject({
      status: 'shipped',
      carrier: 'PostNord',
      updated_at: '2026-11-20T10:00:00+01:00',
    });
    expect(shipped.tracking_number).toMatch(/^\d{20}$/);
    expect(shipped.history.map((h: { status: string }) => h.status)).toEqual([
      'pending',
      'processing',
      'shipped',
    ]);
    expect((await track('gone')).body.status).toBe('cancelled');
    expect((await list('?status=shipped')).body.meta.total).toBe(2);
  });

  it('seeds for another account when named', async () => {
    await start();
    sandbox.seedShipments({ count: 2, account: OTHER_EMAIL });
    expect((await list('', OTHER_TOKEN)).body.meta.total).toBe(2);
    expect((await list()).body.meta.total).toBe(0);
  });

  it('is followed by automatic advance like any new shipment', async () => {
    sandbox = await startPartnerSandbox({ autoAdvanceMs: 20 });
    sandbox.seedShipments({ count: 2 });
    const deadline = Date.now() + 2_000;
    while (Date.now() < deadline && sandbox.shipments().some((s) => s.status !== 'delivered')) {
      await sleep(10);
    }
    expect(sandbox.shipments().map((s) => s.status)).toEqual(['delivered', 'delivered']);
  });

  it.each([
    ['no count or references', {}],
    ['a count of 0', { count: 0 }],
    ['a count over 100,000', { count: 100_001 }],
    ['a count that differs from the references', { count: 2, references: ['x'] }],
    ['a reference twice', { references: ['x', 'x'] }],
    ['a blank reference', { references: [' '] }],
    ['a reference over 255 characters', { references: ['r'.repeat(256)] }],
    ['an unknown status', { count: 1, status: 'lost' }],
    ['a creation in the future', { count: 1, createdAt: '2026-11-23T00:00:00Z' }],
    ['createdAt and a range', { count: 1, createdAt: '2026-11-01', createdFrom: '2026-11-01' }],
    ['half a range', { count: 1, createdFrom: '2026-11-01' }],
    ['a range backwards', { count: 2, createdFrom: '2026-11-02', createdTo: '2026-11-01' }],
    ['a date that is not one', { count: 1, createdAt: 'yesterday' }],
  ])('refuses %s with 400 and creates nothing', async (_case, body) => {
    await start();
    const answer = await control(sandbox, 'POST', '/shipments/seed', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, message: expect.any(String) });
    expect(sandbox.shipments()).toEqual([]);
  });

  it('refuses a reference the account already has (409) and an unknown account (404), creating nothing', async () => {
    await start();
    sandbox.seedShipments({ count: 2 });
    expect((await control(sandbox, 'POST', '/shipments/seed', { count: 3 })).status).toBe(409);
    expect(
      (await control(sandbox, 'POST', '/shipments/seed', { count: 1, account: 'x@y.z' })).status,
    ).toBe(404);
    expect(sandbox.shipments()).toHaveLength(2);
    // The same references under another account are fine.
    expect(sandbox.seedShipments({ count: 3, account: OTHER_EMAIL }).count).toBe(3);
  });
});
