import type { Redis } from 'ioredis';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.js';
import { PartnerBudget } from '../../src/partner/budget.js';
import { scanKeys } from '../../src/queue/redis.js';
import { fullConnectorEnv } from '../helpers/connector-cli.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';
import { waitUntil } from '../helpers/shipment-stack.js';

let redis: Redis;
let prefix: string;

beforeEach(async () => {
  redis ??= testRedis();
  prefix = uniquePrefix('budget');
});

afterAll(async () => {
  await dropKeys(redis, 'test-budget-');
  await redis.quit();
});

function budget(options: Partial<ConstructorParameters<typeof PartnerBudget>[1]> = {}) {
  return new PartnerBudget(redis, {
    token: 'tok',
    limit: 5,
    windowMs: 400,
    safetyMarginMs: 0,
    keyPrefix: prefix,
    ...options,
  });
}

describe('PartnerBudget', () => {
  it('grants the limit, then denies with the time until the oldest request leaves the window', async () => {
    const b = budget();
    const decisions = [];
    for (let i = 0; i < 6; i++) decisions.push(await b.take('create'));
    expect(decisions.slice(0, 5).every((d) => d.granted)).toBe(true);
    const last = decisions[5]!;
    expect(last.granted).toBe(false);
    if (!last.granted) {
      expect(last.waitMs).toBeGreaterThan(300);
      expect(last.waitMs).toBeLessThanOrEqual(401);
    }
  });

  it('grants again once the window has slid past the oldest request', async () => {
    const clock = { now: Date.now() };
    const b = budget({ limit: 2, windowMs: 60_000, clock: () => clock.now });
    await b.take('create');
    clock.now += 10_000;
    await b.take('create');
    const denied = await b.take('create');
    expect(denied).toEqual({ granted: false, waitMs: 50_001 });
    clock.now += 49_999;
    expect((await b.take('create')).granted).toBe(false);
    clock.now += 1; // 60 s after the oldest request: it has left the window
    expect((await b.take('create')).granted).toBe(true);
  });

  it('gives back a place taken ahead that no request used', async () => {
    const b = budget({ limit: 2, windowMs: 60_000 });
    const first = await b.take('create');
    const second = await b.take('create');
    expect((await b.take('create')).granted).toBe(false);
    if (!second.granted || !second.slot) throw new Error('expected a granted place');
    await b.release(second.slot);
    await b.release(second.slot); // twice: given back once
    expect((await b.stats()).remaining).toBe(1);
    expect((await b.stats()).sent).toBe(1);
    expect((await b.take('create')).granted).toBe(true);
    expect(first.granted).toBe(true);
  });

  it('moves a place taken ahead to the time its request leaves, so the window counts from then', async () => {
    const clock = { now: Date.now() };
    const b = budget({ limit: 1, windowMs: 60_000, clock: () => clock.now });
    const taken = await b.take('create');
    if (!taken.granted || !taken.slot) throw new Error('expected a granted place');
    clock.now += 10_000; // the order was read meanwhile
    expect(await b.confirm(taken.slot)).toBe('moved');
    clock.now += 50_000; // 60 s after the take, 50 s after the request left
    expect(await b.take('create')).toEqual({ granted: false, waitMs: 10_001 });
    clock.now += 10_000;
    expect((await b.take('create')).granted).toBe(true);
  });

  it('says a place taken ahead is gone once it has left the window', async () => {
    const clock = { now: Date.now() };
    const b = budget({ limit: 1, windowMs: 1_000, clock: () => clock.now });
    const taken = await b.take('create');
    if (!taken.granted || !taken.slot) throw new Error('expected a granted place');
    clock.now += 1_500;
    await b.take('create'); // trims the log
    expect(await b.confirm(taken.slot)).toBe('gone');
  });

  it('does not move a place taken ahead while a 429 that came meanwhile blocks, and keeps it', async () => {
    const clock = { now: Date.now() };
    const b = budget({ limit: 2, windowMs: 60_000, clock: () => clock.now });
    const taken = await b.take('create');
    if (!taken.granted || !taken.slot) throw new Error('expected a granted place');
    await b.block(5_000); // another request met a 429 while this order was read

    expect(await b.confirm(taken.slot)).toBe('blocked');
    expect(await b.blockedForMs()).toBeGreaterThan(4_000);
    expect(await b.stats()).toMatchObject({ remaining: 1, sent: 1 });
    await b.release(taken.slot);
    expect(await b.stats()).toMatchObject({ remaining: 2, sent: 0 });
  });

  it('is one budget for every connection using the same token', async () => {
    const other = testRedis();
    try {
      const a = budget({ limit: 3 });
      const b = new PartnerBudget(other, {
        token: 'tok',
        limit: 3,
        windowMs: 400,
        safetyMarginMs: 0,
        keyPrefix: prefix,
      });
      await a.take('create');
      await b.take('sync');
      await a.take('create');
      expect((await b.take('create')).granted).toBe(false);
      expect((await budget({ token: 'another-token', limit: 3 }).take('create')).granted).toBe(
        true,
      );
    } finally {
      await other.quit();
    }
  });

  it('never stores the token itself in Redis', async () => {
    const b = budget({ token: 'very-secret-token' });
    await b.take('create');
    await b.block(1_000);
    const keys: string[] = [];
    for await (const batch of scanKeys(redis, `${prefix}*`)) keys.push(...batch);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join(' ')).not.toContain('very-secret-token');
  });

  it('denies every request, of every priority, while a 429 block lasts', async () => {
    const b = budget({ limit: 100 });
    await b.block(60_000);
    const create = await b.take('create');
    const sync = await b.take('sync');
    expect(create.granted).toBe(false);
    expect(sync.granted).toBe(false);
    if (!create.granted) expect(create.waitMs).toBeGreaterThan(50_000);
  });

  it('grants again once a 429 block has passed', async () => {
    const b = budget({ limit: 100 });
    await b.block(50);
    await waitUntil(async () => (await b.take('create')).granted, { what: 'the block to end' });
    expect((await b.stats()).rateLimited).toBe(1);
  });

  it('takes a Retry-After of 0 as a 429 to count, not an error', async () => {
    const b = budget();
    await b.block(0);
    expect((await b.stats()).rateLimited).toBe(1);
    await waitUntil(async () => (await b.take('create')).granted, { what: 'the block to end' });
  });

  it('never shortens a block', async () => {
    const b = budget();
    await b.block(1_000);
    await b.block(100);
    expect(await b.blockedForMs()).toBeGreaterThan(800);
  });

  /**
   * A budget on a clock moved by hand, over a window far longer than the test runs, so neither
   * a slow machine nor Redis's own key expiry can slide the window behind the test's back.
   */
  function budgetOnClock(options: { limit: number; syncReserve: number }) {
    const clock = { now: Date.now() };
    const windowMs = 60_000;
    const b = budget({ ...options, windowMs, clock: () => clock.now });
    const slideWindow = (decision: { granted: boolean }) => {
      expect(decision.granted).toBe(false);
      clock.now += windowMs + 1;
    };
    return { b, slideWindow };
  }

  it('keeps the sync reserve free from creates while sync waits', async () => {
    // limit 10, 20% reserve = 2 slots per window.
    const { b, slideWindow } = budgetOnClock({ limit: 10, syncReserve: 0.2 });
    for (let i = 0; i < 10; i++) expect((await b.take('create')).granted).toBe(true);
    slideWindow(await b.take('sync')); // sync is refused and now counts as waiting

    const creates = [];
    for (let i = 0; i < 10; i++) creates.push((await b.take('create')).granted);
    expect(creates.filter(Boolean)).toHaveLength(8);
    expect((await b.take('sync')).granted).toBe(true);
    expect((await b.take('sync')).granted).toBe(true);
    expect((await b.take('sync')).granted).toBe(false);
  });

  it('gives sync no more than its reserve while creates wait', async () => {
    const { b, slideWindow } = budgetOnClock({ limit: 10, syncReserve: 0.2 });
    for (let i = 0; i < 10; i++) expect((await b.take('sync')).granted).toBe(true);
    slideWindow(await b.take('create')); // a create is refused and now waits

    const syncs = [];
    for (let i = 0; i < 5; i++) syncs.push((await b.take('sync')).granted);
    expect(syncs.filter(Boolean)).toHaveLength(2);
    const creates = [];
    for (let i = 0; i < 10; i++) creates.push((await b.take('create')).granted);
    expect(creates.filter(Boolean)).toHaveLength(8);
  });

  it('gives sync, at the default reserve, more of a window both wait for than creates', async () => {
    // An order's whole life takes one create and a little over one sync request: with less than
    // half of each window, a backlog of creates would hold its fulfilments back without end.
    const env = fullConnectorEnv('unused', {
      partner: 'http://127.0.0.1:1/api/v1',
      store: 'http://127.0.0.1:1',
    });
    const { syncReserve } = loadConfig(env).partner;
    const { b, slideWindow } = budgetOnClock({ limit: 60, syncReserve });
    for (let i = 0; i < 60; i++) expect((await b.take('create')).granted).toBe(true);
    slideWindow(await b.take('sync')); // sync is refused and now counts as waiting

    let creates = 0;
    let syncs = 0;
    for (let i = 0; i < 60; i++) {
      if ((await b.take('create')).granted) creates += 1;
      if ((await b.take('sync')).granted) syncs += 1;
    }
    expect(creates + syncs).toBe(60);
    expect(syncs).toBeGreaterThan(creates);
    expect(syncs).toBe(36);
  });

  it('lets one kind use the whole budget when the other is not waiting', async () => {
    const b = budget({ limit: 10, windowMs: 1_000, syncReserve: 0.5 });
    let granted = 0;
    for (let i = 0; i < 12; i++) if ((await b.take('sync')).granted) granted++;
    expect(granted).toBe(10);
  });

  it('counts what it sent, refused and waited', async () => {
    const b = budget({ limit: 2 });
    await b.take('create');
    await b.take('sync');
    await b.take('create');
    await b.block(50);
    const stats = await b.stats();
    expect(stats.sent).toBe(2);
    expect(stats.denied).toBe(1);
    expect(stats.rateLimited).toBe(1);
    expect(stats.waitMs).toBeGreaterThan(0);
    expect(stats.remaining).toBe(0);
  });
});
