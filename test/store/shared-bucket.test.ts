import type { Redis } from 'ioredis';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { GrantedTicket } from '../../src/store/transport/cost-gate.js';
import { SharedStoreBucket } from '../../src/store/transport/shared-bucket.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';

/**
 * Two "processes": two SharedStoreBucket instances on two Redis connections, sharing one model
 * under the same prefix. A clock moved by hand stands in for Redis time.
 */
let redisA: Redis;
let redisB: Redis;
let prefix: string;
let clock: { now: number };

beforeEach(() => {
  redisA ??= testRedis();
  redisB ??= testRedis();
  prefix = uniquePrefix('shopify-bucket');
  clock = { now: 1_000_000 };
});

afterAll(async () => {
  await dropKeys(redisA, 'test-shopify-bucket-');
  await Promise.all([redisA.quit(), redisB.quit()]);
});

function bucket(redis: Redis, reserveShare = 0.2) {
  return new SharedStoreBucket(redis, {
    prefix,
    shop: 'demo.myshopify.com',
    reserveShare,
    clock: () => clock.now,
  });
}

function granted(ticket: Awaited<ReturnType<SharedStoreBucket['take']>>): GrantedTicket {
  if (!ticket.granted) throw new Error(`not granted: defer ${ticket.deferMs} ms`);
  return ticket;
}

const status = (currentlyAvailable: number, maximumAvailable = 1000, restoreRate = 100) => ({
  maximumAvailable,
  currentlyAvailable,
  restoreRate,
});

describe('SharedStoreBucket', () => {
  it('starts at its share of a standard bucket and books, in turn, what is not there yet', async () => {
    const a = bucket(redisA);
    const b = bucket(redisB);
    // Share: 80% of 1,000 points, refilled at 80 a second.
    expect(granted(await a.take(605, 60_000)).sendInMs).toBe(0);
    // 195 left: B books its 605 and waits for the 410 missing at 80/s.
    expect(granted(await b.take(605, 60_000)).sendInMs).toBe(5_125);
    // A's next request goes after B's: the level is already 410 below zero.
    expect(granted(await a.take(12, 60_000)).sendInMs).toBe(5_275);
    expect((await b.state()).available).toBe(-422);
  });

  it('takes nothing and says how long when the wait is longer than the caller may wait', async () => {
    const a = bucket(redisA);
    const b = bucket(redisB);
    await a.take(605, 60_000);
    expect(await b.take(605, 1_000)).toEqual({ granted: false, deferMs: 5_125 });
    expect((await a.state()).available).toBe(195);
    expect((await a.state()).deferred).toBe(1);
  });

  it('refills at its share of the restore rate, up to its share of the bucket', async () => {
    const a = bucket(redisA);
    await a.take(800, 0);
    clock.now += 5_000;
    // 5 s × 80/s = 400 back: 400 short of 800.
    expect(granted(await a.take(400, 0)).sendInMs).toBe(0);
    expect(await a.take(1, 0)).toEqual({ granted: false, deferMs: 13 });
    clock.now += 60_000;
    expect(granted(await bucket(redisB).take(800, 0)).sendInMs).toBe(0);
  });

  it('refunds the difference to the actual cost, in every process', async () => {
    const a = bucket(redisA);
    const ticket = granted(await a.take(605, 0));
    await a.settle(ticket, { requested: 605, actual: 17, throttleStatus: status(983) });
    expect((await bucket(redisB).state()).available).toBe(800 - 17);
  });

  it("adopts Shopify's bucket: its size and refill, and less when other apps used it", async () => {
    const a = bucket(redisA);
    const ticket = granted(await a.take(12, 0));
    // A Plus-like bucket, but other apps have left only 700 of it.
    await a.settle(ticket, { requested: 12, actual: 10, throttleStatus: status(700, 2000, 1000) });
    const state = await bucket(redisB).state();
    expect(state).toMatchObject({ maximumAvailable: 2000, restoreRate: 1000 });
    // 700 less the 400 points (20%) left to other apps.
    expect(state.available).toBe(300);
    clock.now += 10_000;
    // Refilled at 800/s up to 1,600.
    expect(granted(await bucket(redisB).take(1600, 0)).sendInMs).toBe(0);
  });

  it('leaves the points booked by requests not yet sent out of what Shopify reports', async () => {
    const a = bucket(redisA);
    const b = bucket(redisB);
    const first = granted(await a.take(700, 60_000));
    const booked = granted(await b.take(300, 60_000));
    expect(booked.sendInMs).toBeGreaterThan(0);
    // Shopify has charged the first, not yet the booked one; another app took 50.
    await a.settle(first, { requested: 700, actual: 700, throttleStatus: status(250) });
    expect((await a.state()).available).toBe(250 - 200 - 300);
    // Once sent and answered, its booking no longer counts: 50 - 200 is above the model.
    await b.settle(booked, { requested: 300, actual: 300, throttleStatus: status(50) });
    expect((await a.state()).available).toBe(-250);
  });

  it('on THROTTLED gives back the whole charge and takes Shopify’s numbers', async () => {
    const a = bucket(redisA);
    const ticket = granted(await a.take(605, 0));
    await a.settle(ticket, { requested: 605, actual: null, throttleStatus: status(350) });
    const state = await a.state();
    expect(state.available).toBe(150);
    expect(state.throttled).toBe(1);
    expect(await a.take(605, 60_000)).toMatchObject({ granted: true, sendInMs: 5_688 });
  });

  it('keeps the charge when no answer came (the request may have run)', async () => {
    const a = bucket(redisA);
    await a.settle(granted(await a.take(100, 0)), undefined);
    expect((await a.state()).available).toBe(700);
  });

  it('lets a document dearer than its whole share go once the share is full', async () => {
    const a = bucket(redisA, 0.5);
    expect(granted(await a.take(605, 0)).sendInMs).toBe(0);
    expect(await a.take(605, 0)).toEqual({ granted: false, deferMs: 12_100 });
  });

  it('keeps one model per prefix and shop', async () => {
    await bucket(redisA).take(800, 0);
    const other = new SharedStoreBucket(redisB, {
      prefix: `${prefix}-other`,
      shop: 'demo.myshopify.com',
      reserveShare: 0.2,
      clock: () => clock.now,
    });
    expect(granted(await other.take(800, 0)).sendInMs).toBe(0);
  });
});
