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

function bucket(redis: Redis, reserveShare = 0) {
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

const ask = (cost: number, operation = 'GetOrder') => ({ cost, operation });

const status = (currentlyAvailable: number, maximumAvailable = 1000, restoreRate = 100) => ({
  maximumAvailable,
  currentlyAvailable,
  restoreRate,
});

describe('SharedStoreBucket', () => {
  it('sends while the level holds the requested cost, and books a place when it does not', async () => {
    const a = bucket(redisA);
    const b = bucket(redisB);
    expect(granted(await a.take(ask(605), 60_000)).sendInMs).toBe(0);
    // 395 left: B books its place and is told when the refill at 100/s covers the 210 missing.
    const booked = granted(await b.take(ask(605), 60_000));
    expect(booked.sendInMs).toBe(2_100);
    expect(booked.booking).toBeDefined();
    // Never answered before, its booking holds its whole requested cost: A's next one is behind.
    expect(granted(await a.take(ask(12), 60_000)).sendInMs).toBe(2_220);
  });

  it('takes nothing and says how long when the wait is longer than the caller may wait', async () => {
    const a = bucket(redisA);
    const b = bucket(redisB);
    await a.take(ask(605), 60_000);
    expect(await b.take(ask(605), 1_000)).toEqual({ granted: false, deferMs: 2_100 });
    expect((await a.state()).available).toBe(395);
    expect((await a.state()).deferred).toBe(1);
  });

  it('refills at the restore rate, up to the whole bucket by default', async () => {
    const a = bucket(redisA);
    await a.take(ask(1000), 0);
    clock.now += 5_000;
    expect(granted(await a.take(ask(500), 0)).sendInMs).toBe(0);
    expect(await a.take(ask(1), 0)).toEqual({ granted: false, deferMs: 10 });
    clock.now += 60_000;
    expect(granted(await bucket(redisB).take(ask(1000), 0)).sendInMs).toBe(0);
  });

  it('leaves the reserve share of the points and the refill unused', async () => {
    const a = bucket(redisA, 0.2);
    expect(granted(await a.take(ask(800), 0)).sendInMs).toBe(0);
    // 80 a second: 1 point takes 13 ms.
    expect(await a.take(ask(1), 0)).toEqual({ granted: false, deferMs: 13 });
    clock.now += 1_000;
    const ticket = granted(await a.take(ask(12), 0));
    await a.settle(ticket, { requested: 12, actual: 10, throttleStatus: status(1000) });
    // Shopify's full bucket less the 200 points left unused.
    expect((await a.state()).available).toBe(800);
  });

  it("takes Shopify's level, up as well as down, and its size and refill", async () => {
    const a = bucket(redisA);
    const ticket = granted(await a.take(ask(605), 0));
    // Refunded and refilled faster than the model's guess: Shopify says 990 of a Plus bucket.
    await a.settle(ticket, { requested: 605, actual: 17, throttleStatus: status(990, 2000, 1000) });
    let state = await bucket(redisB).state();
    expect(state).toMatchObject({ available: 990, maximumAvailable: 2000, restoreRate: 1000 });
    const next = granted(await a.take(ask(12), 0));
    await a.settle(next, { requested: 12, actual: 10, throttleStatus: status(150, 2000, 1000) });
    state = await bucket(redisB).state();
    expect(state.available).toBe(150);
    clock.now += 10_000;
    expect(granted(await bucket(redisB).take(ask(2000), 0)).sendInMs).toBe(0);
  });

  it('leaves out of what Shopify reports the requests sent after this one, and the bookings', async () => {
    const a = bucket(redisA);
    const b = bucket(redisB);
    const first = granted(await a.take(ask(400), 60_000));
    clock.now += 1;
    const second = granted(await b.take(ask(400), 60_000));
    clock.now += 1;
    const booked = granted(await b.take(ask(300), 60_000));
    expect(booked.sendInMs).toBeGreaterThan(0);
    // Shopify answered the first before it had seen the second.
    await a.settle(first, { requested: 400, actual: 400, throttleStatus: status(600) });
    expect((await a.state()).available).toBe(600 - 400 - 300);
    await b.settle(second, { requested: 400, actual: 20, throttleStatus: status(580) });
    expect((await a.state()).available).toBe(580 - 300);
  });

  it('does not take an answer older than one already taken', async () => {
    const a = bucket(redisA);
    const first = granted(await a.take(ask(300), 0));
    clock.now += 1;
    const second = granted(await a.take(ask(300), 0));
    await a.settle(second, { requested: 300, actual: 300, throttleStatus: status(400) });
    // The first's answer was made before the second was charged: 700 is out of date.
    await a.settle(first, { requested: 300, actual: 300, throttleStatus: status(700) });
    expect((await a.state()).available).toBe(400);
  });

  it('books a place at what the document cost last, and the booked request asks again ahead of later ones', async () => {
    const a = bucket(redisA);
    const b = bucket(redisB);
    const warm = granted(await a.take(ask(150), 0));
    await a.settle(warm, { requested: 150, actual: 11, throttleStatus: status(100) });
    // 100 available: each read needs 150 there, but is expected to cost 11 in the end.
    const one = granted(await a.take(ask(150), 60_000));
    expect(one.sendInMs).toBe(500);
    const two = granted(await b.take(ask(150), 60_000));
    expect(two.sendInMs).toBe(610);
    clock.now += 500;
    // A new request is behind both bookings: the 22 points they hold are out of the 128 there.
    expect(granted(await b.take(ask(150), 60_000)).sendInMs).toBe(220);
    // The refill has covered the first: asked again, it goes; the bookings behind it do not
    // stand in its way.
    expect(granted(await a.take({ ...ask(150), booked: one }, 60_000)).sendInMs).toBe(0);
  });

  it('on THROTTLED gives back the whole charge and takes Shopify’s numbers', async () => {
    const a = bucket(redisA);
    const ticket = granted(await a.take(ask(605), 0));
    await a.settle(ticket, { requested: 605, actual: null, throttleStatus: status(350) });
    const state = await a.state();
    expect(state.available).toBe(350);
    expect(state.throttled).toBe(1);
    expect(await a.take(ask(605), 60_000)).toMatchObject({ granted: true, sendInMs: 2_550 });
  });

  it('keeps the charge when no answer came (the request may have run)', async () => {
    const a = bucket(redisA);
    await a.settle(granted(await a.take(ask(100), 0)), undefined);
    expect((await a.state()).available).toBe(900);
  });

  it('refunds down to the actual cost when the answer does not report the bucket', async () => {
    const a = bucket(redisA);
    await a.settle(granted(await a.take(ask(100), 0)), { requested: 100, actual: 10 });
    expect((await a.state()).available).toBe(990);
  });

  it('lets a document dearer than its whole share go once the share is full', async () => {
    const a = bucket(redisA, 0.5);
    expect(granted(await a.take(ask(605), 0)).sendInMs).toBe(0);
    expect(await a.take(ask(605), 0)).toEqual({ granted: false, deferMs: 12_100 });
  });

  it('keeps one model per prefix and shop', async () => {
    await bucket(redisA).take(ask(1000), 0);
    const other = new SharedStoreBucket(redisB, {
      prefix: `${prefix}-other`,
      shop: 'demo.myshopify.com',
      reserveShare: 0,
      clock: () => clock.now,
    });
    expect(granted(await other.take(ask(1000), 0)).sendInMs).toBe(0);
  });
});
