import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { PartnerAuthGuard, tokenRefusedSince } from '../../src/partner/auth-guard.js';
import type { PartnerApi } from '../../src/partner/client.js';
import { PartnerAuthError, PartnerUrlMisconfiguredError } from '../../src/partner/errors.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';

const logger = createLogger({ level: 'silent' });
let redis: Redis;
let prefix: string;
/** Two queues whose jobs call the partner, and one whose jobs do not. */
let partnerQueues: Queue[];
let otherQueue: Queue;

function guard() {
  return new PartnerAuthGuard(redis, prefix, partnerQueues, logger);
}

const partnerAnswering = (answer: 'ok' | 401 | 404): PartnerApi =>
  ({
    listShipments: async () => {
      if (answer === 401) throw new PartnerAuthError('refused', { status: 401 });
      if (answer === 404) throw new PartnerUrlMisconfiguredError('wrong url', { status: 404 });
      return { data: [], meta: { page: 1, per_page: 1, total: 0 } };
    },
  }) as unknown as PartnerApi;

async function paused() {
  return Promise.all(partnerQueues.map((q) => q.isPaused()));
}

beforeEach(() => {
  redis = testRedis();
  prefix = uniquePrefix('auth');
  const queue = (name: string) => new Queue(name, { connection: redis, prefix });
  partnerQueues = [queue('create-shipment'), queue('sync-status')];
  otherQueue = queue('mark-order');
});

afterEach(async () => {
  await Promise.all([...partnerQueues, otherQueue].map((q) => q.close()));
  await dropKeys(redis, prefix);
  await redis.quit();
});

describe('PartnerAuthGuard', () => {
  it('pauses the partner queues on a refusal and resumes them once the token works', async () => {
    const g = guard();
    await g.tokenRefused();
    expect(await paused()).toEqual([true, true]);
    expect(await otherQueue.isPaused()).toBe(false);
    expect(await g.refusedSince()).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    expect(await g.probe(partnerAnswering(401))).toBe(false);
    expect(await paused()).toEqual([true, true]);

    expect(await g.probe(partnerAnswering('ok'))).toBe(true);
    expect(await paused()).toEqual([false, false]);
    expect(await g.refusedSince()).toBeNull();
  });

  it('checks at start even when nothing is paused: a 404 pauses with that reason, a 401 then says token', async () => {
    const g = guard();
    expect(await g.probe(partnerAnswering(404))).toBe(true); // not paused: no request
    expect(await g.probe(partnerAnswering(404), { always: true })).toBe(false);
    expect(await paused()).toEqual([true, true]);
    expect(await g.paused()).toMatchObject({ reason: 'url_misconfigured' });
    expect(await tokenRefusedSince(redis, prefix)).toBeNull();

    expect(await g.probe(partnerAnswering(401))).toBe(false);
    expect(await g.paused()).toMatchObject({ reason: 'token_refused' });

    expect(await g.probe(partnerAnswering('ok'), { always: true })).toBe(true);
    expect(await paused()).toEqual([false, false]);
    expect(await g.paused()).toBeNull();
  });

  it('leaves the queues running when another process accepts the token mid-refusal', async () => {
    const refusing = guard();
    const accepting = guard();
    // The acceptance lands between the refusal's mark and its pause.
    const first = partnerQueues[0]!;
    const pause = first.pause.bind(first);
    first.pause = async () => {
      await accepting.tokenAccepted();
      await pause();
    };

    await refusing.tokenRefused();

    expect(await paused()).toEqual([false, false]);
    expect(await refusing.refusedSince()).toBeNull();
  });

  it('finishes a resume that a crash cut short: the mark stays until a probe succeeds', async () => {
    const g = guard();
    await g.tokenRefused();
    // A process resumed the queues and died before removing the mark.
    await Promise.all(partnerQueues.map((q) => q.resume()));
    expect(await g.refusedSince()).not.toBeNull();

    expect(await g.probe(partnerAnswering('ok'))).toBe(true);
    expect(await g.refusedSince()).toBeNull();
    expect(await paused()).toEqual([false, false]);
  });
});
