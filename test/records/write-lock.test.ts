import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ShipmentTracking } from '../../src/records/shipment-tracking.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';

let redis: Redis;
let prefix: string;
let tracking: ShipmentTracking;

beforeEach(() => {
  redis = testRedis();
  prefix = uniquePrefix('write-lock');
  tracking = new ShipmentTracking(redis, prefix, { lookbackDays: 60 });
});

afterEach(async () => {
  await dropKeys(redis, prefix);
  await redis.quit();
});

/** Holders as the fulfil job names them: `<job id>/<BullMQ token of the execution>`. */
const DEAD = 'fulfil-42-aa/worker-1:7';
const RERUN = 'fulfil-42-aa/worker-2:1';
const TTL = 120_000;

describe("a shipment's write lock", () => {
  it('is taken over by a later execution of the same job, which the earlier one can then neither keep nor release', async () => {
    expect(await tracking.holdWriteLock('42', DEAD, TTL, 'fulfil-42-aa/')).toBe(true);

    expect(await tracking.holdWriteLock('42', RERUN, TTL, 'fulfil-42-aa/')).toBe(true);

    expect(await tracking.keepWriteLock('42', DEAD, TTL)).toBe(false);
    await tracking.releaseWriteLock('42', DEAD);
    expect(await tracking.keepWriteLock('42', RERUN, TTL)).toBe(true);
  });

  it('is not taken from another job, even one whose id starts with the same characters', async () => {
    for (const other of ['fulfil-42-ab/worker-1:3', 'fulfil-42-aab/worker-1:3']) {
      expect(await tracking.holdWriteLock('42', other, TTL, 'fulfil-42-ab/')).toBe(true);
      expect(await tracking.holdWriteLock('42', RERUN, TTL, 'fulfil-42-aa/')).toBe(false);
      await tracking.releaseWriteLock('42', other);
    }
    // Once the other is done, it is free.
    expect(await tracking.holdWriteLock('42', RERUN, TTL, 'fulfil-42-aa/')).toBe(true);
  });

  it('cannot be kept once it expired, even with nobody holding it', async () => {
    expect(await tracking.holdWriteLock('42', DEAD, 1)).toBe(true);
    await expect.poll(() => redis.keys(`${prefix}:*`)).toEqual([]);

    expect(await tracking.keepWriteLock('42', DEAD, TTL)).toBe(false);
  });
});
