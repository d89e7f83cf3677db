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

function bucket(redis: Redis, reserveShare = 0, followUpReserve?: number) {
  return new SharedStoreBucket(redis, {
    prefix,
    shop: 'demo.myshopify.com',
    reserveShare,
    ...(followUpReserve === undefined ? {} : { followUpReserve }),
    clock: () => clock.now,
  });
}

function granted(ticket: Awaited<ReturnType<SharedStoreBucket['take']>>): GrantedTicket {
  if (!ticket.granted) throw new Error(`not granted: defer ${ticket.deferMs} ms`);
  return ticket;
}

const ask = (cost: number, operation = 'GetOrder') => ({ cost, operation });
const followUp = (cost: number, operation = 'CreateFulfillment') => ({
  cost,
  operation,
  priority: 'follow-up' as const,
});

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

describe('SharedStoreBucket: follow-up writes ahead of registrations', () => {
  it('lets a follow-up go ahead of the registrations booked, in any process, and they wait for it', async () => {
    const a = bucket(redisA, 0, 0.8);
    const b = bucket(redisB, 0, 0.8);
    await a.take(ask(1000), 0);
    const first = granted(await a.take(ask(20, 'WriteOrderMarks'), 60_000));
    expect(first.sendInMs).toBe(200);
    expect(granted(await a.take(ask(20, 'WriteOrderMarks'), 60_000)).sendInMs).toBe(400);
    // Behind the 40 points booked by registrations in turn it would wait 600 ms; ahead, 200.
    const ahead = granted(await b.take(followUp(20), 60_000));
    expect(ahead.sendInMs).toBe(200);
    clock.now += 200;
    // The refill of those 200 ms is the follow-up's: the first registration books again.
    expect(
      granted(await a.take({ ...ask(20, 'WriteOrderMarks'), booked: first }, 60_000)),
    ).toMatchObject({ sendInMs: 200 });
    expect(granted(await b.take({ ...followUp(20), booked: ahead }, 60_000)).sendInMs).toBe(0);
  });

  it('sends a follow-up at once with points registrations booked but have not sent', async () => {
    const a = bucket(redisA, 0, 0.8);
    await a.take(ask(980), 0);
    expect(granted(await a.take(ask(20, 'WriteOrderMarks'), 60_000)).sendInMs).toBe(0);
    // 0 left: two registrations book the next 40 points of refill.
    await a.take(ask(20, 'WriteOrderMarks'), 60_000);
    await a.take(ask(20, 'WriteOrderMarks'), 60_000);
    clock.now += 300;
    // 30 points refilled, 40 booked: a registration waits behind the bookings, a follow-up
    // goes now with what they would have used (and never beyond the level Shopify has).
    expect(granted(await a.take(ask(20, 'WriteOrderMarks'), 60_000)).sendInMs).toBe(300);
    expect(granted(await bucket(redisB, 0, 0.8).take(followUp(20), 60_000)).sendInMs).toBe(0);
    expect(await a.take(followUp(20), 0)).toEqual({ granted: false, deferMs: 100 });
  });

  it('takes a follow-up whose booking expired as a new one, behind the follow-ups booked since', async () => {
    const a = bucket(redisA, 0, 0.8);
    await a.take(ask(1000), 0);
    const late = granted(await a.take(followUp(20), 60_000));
    expect(late.sendInMs).toBe(200);
    // Its process stalled: the booking is dropped once a minute has passed beyond it.
    clock.now += 200 + 60_001;
    await a.take(ask(1000), 0);
    expect(granted(await bucket(redisB, 0, 0.8).take(followUp(20), 60_000)).sendInMs).toBe(200);
    expect(granted(await a.take({ ...followUp(20), booked: late }, 60_000)).sendInMs).toBe(400);
  });

  it('waits in turn when no share is kept for follow-ups (SHOPIFY_FOLLOW_UP_RESERVE=0)', async () => {
    const a = bucket(redisA, 0, 0);
    await a.take(ask(1000), 0);
    await a.take(ask(20, 'WriteOrderMarks'), 60_000);
    await a.take(ask(20, 'WriteOrderMarks'), 60_000);
    expect(granted(await a.take(followUp(20), 60_000)).sendInMs).toBe(600);
  });

  type Kind = 'registration' | 'follow-up';

  /**
   * Workers of each kind that send one document after another as the transport does (asking
   * again at their booked time, or after a deferral), for `seconds` of the driven clock, taking
   * turns between the buckets (processes). A document is answered 50 ms after it is sent, or
   * `followUpGapMs` for follow-ups. With `followUpsPerRegistration`, a follow-up worker has work
   * only for the orders registered, one follow-up each, as in the connector. Returns what each
   * kind sent in the second half (documents, points) and the follow-ups left waiting for a worker.
   */
  async function drive(
    buckets: SharedStoreBucket[],
    options: {
      registrations: number;
      followUps: number;
      cost?: Record<Kind, number>;
      followUpGapMs?: number;
      followUpsPerRegistration?: boolean;
    },
    seconds: number,
  ) {
    type Worker = { kind: Kind; at: number; busy: boolean; booked?: GrantedTicket };
    const cost = options.cost ?? { registration: 10, 'follow-up': 10 };
    const start = clock.now;
    const half = start + (seconds * 1_000) / 2;
    const end = start + seconds * 1_000;
    const worker = (kind: Kind): Worker => ({ kind, at: start, busy: false });
    const workers = [
      ...Array.from({ length: options.registrations }, () => worker('registration')),
      ...Array.from({ length: options.followUps }, () => worker('follow-up')),
    ];
    const sent = { registration: 0, 'follow-up': 0 };
    const points = { registration: 0, 'follow-up': 0 };
    let waiting = 0;
    for (let turn = 0; ; turn += 1) {
      workers.sort((x, y) => x.at - y.at);
      const next = workers[0]!;
      if (next.at >= end) return { sent, points, waiting };
      clock.now = next.at;
      if (!next.busy && next.kind === 'follow-up' && options.followUpsPerRegistration) {
        if (waiting === 0) {
          next.at += 50;
          continue;
        }
        waiting -= 1;
      }
      next.busy = true;
      const ticket = await buckets[turn % buckets.length]!.take(
        {
          cost: cost[next.kind],
          operation: next.kind,
          priority: next.kind,
          ...(next.booked ? { booked: next.booked } : {}),
        },
        10_000,
      );
      if (!ticket.granted) {
        delete next.booked;
        next.at += ticket.deferMs;
      } else if (ticket.sendInMs > 0) {
        next.booked = ticket;
        next.at += ticket.sendInMs;
      } else {
        delete next.booked;
        next.busy = false;
        if (next.at >= half) {
          sent[next.kind] += 1;
          points[next.kind] += ticket.cost;
        }
        if (next.kind === 'registration') waiting += 1;
        next.at += next.kind === 'follow-up' ? (options.followUpGapMs ?? 50) : 50;
      }
    }
  }

  it('does not starve registrations when follow-ups keep coming: past their reserve, the rest of the refill is theirs', async () => {
    const buckets = [bucket(redisA, 0, 0.8), bucket(redisB, 0, 0.8)];
    const { points } = await drive(buckets, { registrations: 8, followUps: 8 }, 120);
    const total = points.registration + points['follow-up'];
    // The whole refill of the last 60 s, 100 a second.
    expect(total).toBeGreaterThanOrEqual(5_900);
    expect(total).toBeLessThanOrEqual(6_100);
    expect(points.registration / total).toBeGreaterThan(0.15);
    expect(points['follow-up'] / total).toBeGreaterThan(0.75);
    expect((await buckets[0]!.state()).followUpShare).toBeCloseTo(0.8, 1);
  });

  it('gives follow-ups all they wait for while that is less than their reserve', async () => {
    const buckets = [bucket(redisA, 0, 0.8), bucket(redisB, 0, 0.8)];
    // One follow-up 200 ms after the last (half the refill): the 300 of the last 60 s go at
    // their pace, whatever the registrations waiting, which take the rest.
    const { points } = await drive(
      buckets,
      { registrations: 8, followUps: 1, followUpGapMs: 200 },
      120,
    );
    expect(points['follow-up']).toBeGreaterThanOrEqual(2_900);
    expect(points['follow-up'] + points.registration).toBeGreaterThanOrEqual(5_900);
  });

  it('in a steady state, completes as many orders as it registers, at the bound the refill allows', async () => {
    // A registration of 10 points, then one follow-up of 15: 4 whole orders a second at most.
    const options = {
      registrations: 8,
      followUps: 2,
      cost: { registration: 10, 'follow-up': 15 },
      followUpsPerRegistration: true,
    };
    const ahead = await drive([bucket(redisA, 0, 0.8), bucket(redisB, 0, 0.8)], options, 120);
    expect(ahead.sent['follow-up']).toBeGreaterThanOrEqual(0.95 * 4 * 60);
    expect(Math.abs(ahead.sent['follow-up'] - ahead.sent.registration)).toBeLessThanOrEqual(5);
    expect(ahead.waiting).toBeLessThanOrEqual(5);
    // In turn, registrations take most of the refill and the follow-ups fall behind.
    prefix = uniquePrefix('shopify-bucket');
    const inTurn = await drive([bucket(redisA, 0, 0), bucket(redisB, 0, 0)], options, 120);
    expect(inTurn.sent['follow-up']).toBeLessThan(0.7 * 4 * 60);
    expect(inTurn.waiting).toBeGreaterThan(100);
  });
  it("never counts points of a booking left by a crashed process as Shopify's once the refill has filled the bucket", async () => {
    const a = bucket(redisA, 0, 0.8);
    granted(await a.take(ask(1000), 60_000));
    // Its process goes before it asks again: the booking stays until its grace is over.
    expect(granted(await bucket(redisB, 0, 0.8).take(ask(600), 60_000)).sendInMs).toBeGreaterThan(
      0,
    );
    clock.now += 20_000;
    expect(granted(await a.take(followUp(400), 60_000)).sendInMs).toBe(0);
    // Shopify holds 600 now, whatever is booked.
    expect(granted(await a.take(followUp(700), 60_000)).sendInMs).toBeGreaterThan(0);
  });
});
