import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEEDED_ACCOUNTS } from '../../src/sandbox/partner/accounts.js';
import { SandboxCore } from '../../src/sandbox/partner/core.js';
import { type PartnerSandbox, startPartnerSandbox } from '../../src/sandbox/partner/index.js';
import { checkShipment } from '../../src/sandbox/partner/shipment-rules.js';
import { COPENHAGEN_TIMESTAMP, call, control, DEMO_EMAIL, validShipment } from './helpers.js';

/** "New status values may appear over time": the control endpoints can produce one. */
describe('undocumented statuses', () => {
  let sandbox: PartnerSandbox;
  let now = new Date('2026-11-22T09:00:00Z');
  beforeEach(async () => {
    sandbox = await startPartnerSandbox({ clock: () => now });
  });
  afterEach(async () => {
    await sandbox.close();
  });

  const create = (reference: string) =>
    call(sandbox, 'POST', '/shipments', { body: validShipment(reference) });
  const hold = (reference: string, body: Record<string, unknown>) =>
    control(sandbox, 'POST', `/shipments/${reference}/status`, body);

  it('puts a shipment into a status the contract does not list, with its label and a history entry', async () => {
    await create('u-1');
    now = new Date('2026-11-23T08:00:00Z');
    const held = await hold('u-1', { status: 'held_at_customs', label: 'Held at customs' });
    expect(held.status).toBe(200);

    const record = (await call(sandbox, 'GET', '/shipments/u-1')).body;
    expect(record).toMatchObject({
      status: 'held_at_customs',
      status_label: 'Held at customs',
      updated_at: '2026-11-23T09:00:00+01:00',
    });
    expect(record.history).toEqual([
      { status: 'pending', occurred_at: '2026-11-22T10:00:00+01:00' },
      { status: 'held_at_customs', occurred_at: '2026-11-23T09:00:00+01:00' },
    ]);
    expect((await call(sandbox, 'GET', '/shipments')).body.data[0]).toMatchObject({
      reference: 'u-1',
      status: 'held_at_customs',
    });
  });

  it('filters the list by the new status once it exists, and refuses it before', async () => {
    await create('u-2');
    await create('u-3');
    expect((await call(sandbox, 'GET', '/shipments?status=held_at_customs')).status).toBe(422);
    sandbox.setUndocumentedStatus('u-2', 'held_at_customs', 'Held at customs');
    const answer = await call(sandbox, 'GET', '/shipments?status=held_at_customs');
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((item: { reference: string }) => item.reference)).toEqual(['u-2']);
  });

  it('needs a label the first time, but not for a status already introduced', async () => {
    await create('u-4');
    await create('u-5');
    expect((await hold('u-4', { status: 'awaiting_pickup' })).status).toBe(400);
    expect(
      (await hold('u-4', { status: 'awaiting_pickup', label: 'Awaiting pickup' })).status,
    ).toBe(200);
    const second = await hold('u-5', { status: 'awaiting_pickup' });
    expect(second.status).toBe(200);
    expect(second.body.status_label).toBe('Awaiting pickup');
  });

  it.each([
    ['a documented status', { status: 'shipped', label: 'Shipped' }, 400],
    ['a status not shaped like the documented ones', { status: 'Held Up', label: 'x' }, 400],
    ['a blank label', { status: 'held_at_customs', label: ' ' }, 400],
  ])('refuses %s', async (_case, body, status) => {
    await create('u-6');
    const answer = await hold('u-6', body);
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ success: false, message: expect.any(String) });
    expect((await call(sandbox, 'GET', '/shipments/u-6')).body.status).toBe('pending');
  });

  it('refuses a finished shipment and an unknown reference', async () => {
    await create('u-7');
    sandbox.advance('u-7', 'delivered');
    const finished = await hold('u-7', { status: 'held_at_customs', label: 'Held at customs' });
    expect(finished.status).toBe(409);
    expect((await hold('nope', { status: 'held_at_customs', label: 'x' })).status).toBe(404);
  });

  it('needs a named status to leave an undocumented one, then goes straight there', async () => {
    await create('u-8');
    await create('u-9');
    sandbox.setUndocumentedStatus('u-8', 'held_at_customs', 'Held at customs');
    sandbox.setUndocumentedStatus('u-9', 'held_at_customs');
    expect(() => sandbox.advance('u-8')).toThrow(/name the status/);
    expect(() => sandbox.advance('u-8', 'pending')).toThrow(/cannot move back/);

    const delivered = sandbox.advance('u-8', 'delivered');
    expect(delivered.history.map((h) => h.status)).toEqual([
      'pending',
      'held_at_customs',
      'delivered',
    ]);
    // Delivered without passing `shipped` still names a carrier and tracking number.
    expect(delivered.carrier).toBe('PostNord');
    expect(delivered.tracking_number).toMatch(/^\d{20}$/);
    expect(sandbox.cancel('u-9').status).toBe('cancelled');
    expect(delivered.updated_at).toMatch(COPENHAGEN_TIMESTAMP);
  });
});

describe('automatic advance around an undocumented status', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits while a shipment is held and carries on once it is back on the path', () => {
    vi.useFakeTimers();
    const core = new SandboxCore({
      accounts: SEEDED_ACCOUNTS,
      rateLimit: 60,
      rateWindowMs: 60_000,
      autoAdvanceMs: 1_000,
      latencyMs: 0,
      tokenLockout: { maxFailures: 5, failureWindowMs: 60_000, lockoutMs: 60_000 },
      clock: () => new Date(),
    });
    const checked = checkShipment(validShipment('auto-held'));
    if (!checked.ok) throw new Error('the base shipment must be valid');
    const { shipment } = core.create(DEMO_EMAIL, checked.shipment);

    core.setUndocumentedStatus('auto-held', 'held_at_customs', 'Held at customs');
    vi.advanceTimersByTime(10_000);
    expect(shipment.status).toBe('held_at_customs');

    core.advance('auto-held', 'processing');
    vi.advanceTimersByTime(1_000);
    expect(shipment.status).toBe('shipped');
    vi.advanceTimersByTime(1_000);
    expect(shipment.history.map((h) => h.status)).toEqual([
      'pending',
      'held_at_customs',
      'processing',
      'shipped',
      'delivered',
    ]);
    core.stop();
  });
});
