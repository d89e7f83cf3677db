import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shipmentSentSinceMs } from '../../src/domain/shipment-contents.js';
import { OrderRecords } from '../../src/records/order-records.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';
import { waitUntil } from '../helpers/shipment-stack.js';

const DAY_MS = 24 * 3600_000;
const shipment = { orderNumber: 'PS-1', status: 'pending', createdAt: '2026-11-20T10:00:00+01:00' };

let redis: Redis;
let prefix: string;
let records: OrderRecords;

beforeEach(() => {
  redis = testRedis();
  prefix = uniquePrefix('records');
  records = new OrderRecords(redis, prefix, { retentionDays: 90 });
});

afterEach(async () => {
  await dropKeys(redis, prefix);
  await redis.quit();
});

/** Days left before the order's record expires, as Redis counts them. */
async function daysLeft(orderId: string): Promise<number> {
  const ms = await redis.pttl(`${prefix}:order:${orderId}`);
  return ms < 0 ? ms : Math.round(ms / DAY_MS);
}

describe('order record retention', () => {
  it('keeps a skipped order 30 days', async () => {
    await records.markSkipped('1', 'not_paid', 'Financial status is pending.');
    expect(await daysLeft('1')).toBe(30);
  });

  it('keeps a registered, failed or sending order RECORD_RETENTION_DAYS after its last change', async () => {
    await records.markRegistered('1', shipment);
    await records.markFailed('2', 'Order #2 cannot be shipped as it is: …');
    await records.markSending('3');

    expect([await daysLeft('1'), await daysLeft('2'), await daysLeft('3')]).toEqual([90, 90, 90]);
  });

  it('restarts the clock when a skipped order is registered, and never shortens a registered one', async () => {
    await records.markSkipped('1', 'not_paid', 'Financial status is pending.');
    await records.markSending('1');
    expect(await daysLeft('1')).toBe(90);
    await records.markRegistered('1', shipment);

    // A late skip of a registered order changes nothing, its expiry included.
    await records.markSkipped('1', 'fulfilled', 'Order is already fulfilled.');
    expect(await records.get('1')).toMatchObject({ state: 'registered' });
    expect(await daysLeft('1')).toBe(90);
  });

  it('keeps a cancellation flag for the retention period from the cancellation', async () => {
    await records.markRegistered('1', shipment);
    await redis.pexpire(`${prefix}:order:1`, 5 * DAY_MS);

    expect(await records.flagCancelledAfterRegistration('1')).toBe(true);
    expect(await daysLeft('1')).toBe(90);
  });

  it('never keeps a skipped order longer than a shorter RECORD_RETENTION_DAYS', async () => {
    const short = new OrderRecords(redis, prefix, { retentionDays: 7 });
    await short.markSkipped('1', 'not_paid', 'Financial status is pending.');
    await short.markRegistered('2', shipment);
    expect([await daysLeft('1'), await daysLeft('2')]).toEqual([7, 7]);
  });
});

describe('the index of registered orders', () => {
  it('drops registrations older than the retention period each time one is added', async () => {
    const now = Date.parse('2026-11-20T10:00:00Z');
    await records.markRegistered('1', shipment, new Date(now - 100 * DAY_MS));
    await records.markRegistered('2', shipment, new Date(now - 89 * DAY_MS));

    await records.markRegistered('3', shipment, new Date(now));

    expect(await records.registeredSince(new Date(0))).toEqual(['2', '3']);
  });
});

describe('a create request about to leave', () => {
  it('marks the order sending and keeps the request fingerprint in the same step', async () => {
    await records.markSending('1', 'receiver=a;lines=b;weights=c');

    expect(await records.get('1')).toMatchObject({
      state: 'sending',
      sentFingerprint: 'receiver=a;lines=b;weights=c',
    });
  });

  it('keeps a failed order failed, with its reason, and the first request that may have made a shipment', async () => {
    await records.markFailed('1', 'Order #1 cannot be shipped as it is: …');
    await records.markSending('1', 'first', new Date(), '11x1', 'settings-1');
    await records.markSending('1', 'second', new Date(), '11x2', 'settings-2');

    expect(await records.get('1')).toMatchObject({
      state: 'failed',
      reason: 'Order #1 cannot be shipped as it is: …',
      sentFingerprint: 'first',
      sentUnits: '11x1',
      sentSettings: 'settings-1',
    });

    // The provider said it holds no shipment: the next request is the one to keep.
    await records.clearSent('1', (await records.get('1'))!.sentAt!);
    expect((await records.get('1'))?.sentSettings).toBeUndefined();
    await records.markSending('1', 'third', new Date(), '11x3', 'settings-3');
    expect(await records.get('1')).toMatchObject({
      sentFingerprint: 'third',
      sentUnits: '11x3',
      sentSettings: 'settings-3',
    });
  });

  const redisNowMs = async () => {
    const [seconds, micro] = await redis.time();
    return Number(seconds) * 1000 + Math.floor(Number(micro) / 1000);
  };

  it("keeps the first send's time by Redis's clock through later sends, until the provider said none", async () => {
    const before = await redisNowMs();
    // A worker clock an hour ahead changes nothing of it.
    await records.markSending('1', 'first', new Date(Date.now() + 3600_000), '11x1');
    const first = Number((await records.get('1'))?.firstSentAtMs);
    expect(first).toBeGreaterThanOrEqual(before);
    expect(first).toBeLessThanOrEqual(await redisNowMs());

    await waitUntil(async () => (await redisNowMs()) > first + 5, {
      what: "Redis's clock to move",
    });
    await records.markSending('1', 'second', new Date(), '11x2');
    const resent = await records.get('1');
    expect(Number(resent?.firstSentAtMs)).toBe(first);
    expect(Date.parse(resent!.sentAt!)).toBeGreaterThan(first);

    await records.clearSent('1', resent!.sentAt!);
    expect((await records.get('1'))?.firstSentAtMs).toBeUndefined();
  });

  it('keeps the provider’s creation as an instant, and the fulfilment counts from the earlier', async () => {
    await records.markSending('1', 'first', new Date(), '11x1');
    await records.markRegistered('1', shipment);
    const record = await records.get('1');
    const created = Date.parse('2026-11-20T09:00:00Z');
    expect(Number(record?.partnerCreatedAtMs)).toBe(created);
    // The provider's created_at is earlier than the send here: it is the cut-off.
    expect(shipmentSentSinceMs(record, 0)).toBe(created);
    expect(shipmentSentSinceMs({ ...record!, partnerCreatedAtMs: undefined }, 0)).toBe(
      Number(record?.firstSentAtMs),
    );
  });

  it('keeps the request that made the shipment (a 201) over earlier ones', async () => {
    await records.markSending('1', 'first', new Date(), '11x1', 'settings-1');
    await records.markRegistered('1', shipment, new Date(), {
      fingerprint: 'made',
      units: '11x2',
      settings: 'settings-2',
    });

    expect(await records.get('1')).toMatchObject({
      sentFingerprint: 'made',
      sentUnits: '11x2',
      sentSettings: 'settings-2',
    });
  });

  it('counts the fulfilment from the request that made the shipment, not an earlier one', async () => {
    await records.markSending('1', 'first', new Date(), '11x1', 'settings-1');
    const first = Number((await records.get('1'))?.firstSentAtMs);
    await waitUntil(async () => (await redisNowMs()) > first + 5, {
      what: "Redis's clock to move",
    });
    const before = await redisNowMs();
    await records.markSending('1', 'second', new Date(), '11x2', 'settings-2');
    const after = await redisNowMs();
    expect(Number((await records.get('1'))?.firstSentAtMs)).toBe(first);

    // The second request's answer is a 201: it made the shipment.
    await records.markRegistered('1', shipment, new Date(), {
      fingerprint: 'second',
      units: '11x2',
      settings: 'settings-2',
    });

    const made = Number((await records.get('1'))?.firstSentAtMs);
    expect(made).toBeGreaterThanOrEqual(before);
    expect(made).toBeLessThanOrEqual(after);
  });

  it('keeps the first send’s time when the shipment was made by an earlier request (a 200)', async () => {
    await records.markSending('1', 'first', new Date(), '11x1');
    const first = Number((await records.get('1'))?.firstSentAtMs);
    await waitUntil(async () => (await redisNowMs()) > first + 5, {
      what: "Redis's clock to move",
    });
    await records.markSending('1', 'second', new Date(), '11x1');
    await records.markRegistered('1', shipment);
    expect(Number((await records.get('1'))?.firstSentAtMs)).toBe(first);
  });

  it('keeps the first settings a fingerprint is adopted, rebased or judged under, never a later one', async () => {
    await records.markRegistered('1', shipment);
    expect(await records.adoptSentFingerprint('1', 'adopted', 'settings-1')).toBe(true);
    expect(await records.adoptSentFingerprint('1', 'again', 'settings-2')).toBe(false);
    expect(await records.rebaseSentFingerprint('1', 'adopted', 'rebased', 'settings-3')).toBe(true);
    expect(await records.keepSentSettings('1', 'settings-4')).toBe(false);
    expect(await records.get('1')).toMatchObject({
      sentFingerprint: 'rebased',
      sentSettings: 'settings-1',
    });

    await records.markRegistered('2', shipment, new Date(), {
      fingerprint: 'made',
      units: '11x1',
      settings: '',
    });
    await redis.hdel(`${prefix}:order:2`, 'sentSettings');
    expect(await records.rebaseSentFingerprint('2', 'made', 'rebased', 'settings-5')).toBe(true);
    expect((await records.get('2'))?.sentSettings).toBe('settings-5');
    await redis.hdel(`${prefix}:order:2`, 'sentSettings');
    expect(await records.keepSentSettings('2', 'settings-6')).toBe(true);
    expect((await records.get('2'))?.sentSettings).toBe('settings-6');
  });

  it('writes no settings or fingerprint to a record gone meanwhile', async () => {
    expect(await records.keepSentSettings('1', 'settings-1')).toBe(false);
    expect(await records.adoptSentFingerprint('1', 'adopted', 'settings-1')).toBe(false);
    expect(await redis.exists(`${prefix}:order:1`)).toBe(0);
  });

  it('leaves a registered order registered, and still notes what was sent', async () => {
    await records.markRegistered('1', shipment);
    await records.markSending('1', 'raced');

    const record = await records.get('1');
    expect(record).toMatchObject({ state: 'registered', sentFingerprint: 'raced' });
    expect(record?.sentAt).toBeUndefined();
  });
});

describe('the index of waiting orders', () => {
  const at = (minutes: number) => new Date(Date.UTC(2026, 10, 26, 12, minutes));

  it('gives the most overdue first, no more than asked', async () => {
    for (const [orderId, due] of [
      ['7101', 30],
      ['7102', 10],
      ['7103', 20],
      ['7104', 50],
    ] as const) {
      await records.markSkipped(orderId, 'held', 'Waiting: …', at(0));
      await records.markWaiting(orderId, at(due), at(0));
    }
    expect(await records.dueWaiting(at(40), 2)).toEqual(['7102', '7103']);
    expect(await records.dueWaiting(at(40), 10)).toEqual(['7102', '7103', '7101']);
  });

  it('keeps since when the order waits, from its first wait until it stops waiting', async () => {
    await records.markSkipped('7001', 'held', 'Waiting: …', at(0));
    await records.markWaiting('7001', at(5), at(0));
    expect(await records.isWaiting('7001')).toBe(true);
    // Looked at again, still waiting: the start of the wait stays, the next look moves.
    await records.markSkipped('7001', 'held', 'Waiting: …', at(5));
    await records.markWaiting('7001', at(10), at(5));
    expect((await records.get('7001'))?.waitingSince).toBe(at(0).toISOString());
    expect(await records.dueWaiting(at(9), 10)).toEqual([]);
    expect(await records.dueWaiting(at(10), 10)).toEqual(['7001']);

    await records.markRegistered('7001', shipment, at(20));
    expect(await records.isWaiting('7001')).toBe(false);
    expect((await records.get('7001'))?.waitingSince).toBeUndefined();

    await records.markSkipped('7002', 'held', 'Waiting: …', at(0));
    await records.markWaiting('7002', at(5), at(0));
    await records.stopWaiting('7002');
    expect(await records.isWaiting('7002')).toBe(false);
    expect((await records.get('7002'))?.waitingSince).toBeUndefined();

    // Skipped for another reason (cancelled, fulfilled by staff, unpaid): it waits no more.
    await records.markSkipped('7003', 'held', 'Waiting: …', at(0));
    await records.markWaiting('7003', at(5), at(0));
    await records.markSkipped('7003', 'cancelled', 'Order is cancelled.', at(6));
    expect(await records.isWaiting('7003')).toBe(false);
    expect(await records.get('7003')).toMatchObject({ skipCode: 'cancelled' });
    expect((await records.get('7003'))?.waitingSince).toBeUndefined();
  });

  it('finds the longest waits at once, and forgets each wait when it ends', async () => {
    const day = (days: number) => new Date(Date.UTC(2026, 10, 1 + days, 12));
    for (const [id, began] of [
      ['7101', 0],
      ['7102', 3],
      ['7103', 9],
    ] as const) {
      await records.markSkipped(id, 'held', 'Waiting: …', day(began));
      await records.markWaiting(id, day(began + 0.01), day(began));
    }
    // Looked at again: the wait still counts from its start, as the worker says.
    await records.markWaiting('7101', day(9.5), day(9), day(0));
    expect((await records.get('7101'))?.waitingSince).toBe(day(0).toISOString());
    // A wait on a schedule counts from its date.
    await records.markSkipped('7104', 'held', 'Waiting: …', day(1));
    await records.markWaiting('7104', day(1.04), day(1), day(30));
    expect((await records.get('7104'))?.waitingSince).toBe(day(1).toISOString());
    expect(await records.oldestWaitingSince()).toEqual(day(0));
    expect(await records.waitingSince(day(10 - 7), 10)).toEqual({
      count: 1,
      waits: [{ orderId: '7101', since: day(0) }],
    });
    expect((await records.waitingSince(day(10), 1)).count).toBe(3);

    await records.markRegistered('7101', shipment, day(10));
    await records.markSkipped('7102', 'cancelled', 'Order is cancelled.', day(10));
    expect(await records.oldestWaitingSince()).toEqual(day(9));
    await records.markFailed('7103', 'Refused.', day(10));
    expect(await records.oldestWaitingSince()).toEqual(day(30));
    await records.stopWaiting('7104');
    expect(await records.oldestWaitingSince()).toBeNull();
    expect(await records.waitingSince(day(20), 10)).toEqual({ count: 0, waits: [] });
  });

  it('keeps the index of waits bounded: a wait not looked at for 30 days leaves both indexes', async () => {
    const day = (days: number) => new Date(Date.UTC(2026, 10, 1 + days, 12));
    await records.markSkipped('7201', 'held', 'Waiting: …', day(0));
    await records.markWaiting('7201', day(0.01), day(0));
    await records.markSkipped('7202', 'held', 'Waiting: …', day(31));
    await records.markWaiting('7202', day(31.01), day(31));
    expect(await records.isWaiting('7201')).toBe(false);
    expect(await records.oldestWaitingSince()).toEqual(day(31));
  });
});
