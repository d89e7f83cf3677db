import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { Counters } from '../../src/metrics/counters.js';
import { PartnerAuthGuard } from '../../src/partner/auth-guard.js';
import { PartnerBudget } from '../../src/partner/budget.js';
import { countHmacFailure } from '../../src/records/hmac-failure-streak.js';
import { OrderRecords } from '../../src/records/order-records.js';
import { OrderTimeline } from '../../src/records/order-timeline.js';
import { claimPartnerEnvironment } from '../../src/records/partner-environment.js';
import { ShipmentTracking } from '../../src/records/shipment-tracking.js';
import { StoreHealth } from '../../src/records/store-health.js';
import { hashSlot } from '../helpers/hash-slot.js';
import { dropKeys, ON_CLUSTER, testRedis } from '../helpers/redis.js';

/**
 * On a Redis Cluster a script, a MULTI or a pipeline whose keys are in several slots is refused
 * (CROSSSLOT). This records the keys of every command the connector's records, counters, guards
 * and budget send, for a hash-tagged prefix, and checks that each command (and each MULTI as a
 * whole) stays in one slot: the prefix's. On `npm run test:cluster` it runs against the cluster.
 */
const PREFIX = `{slots-${Math.random().toString(36).slice(2, 8)}}`;
const TOKEN = 'slot-test-token';

type Recorded = { command: string; keys: string[] };

function recording(redis: Redis): Recorded[] {
  const recorded: Recorded[] = [];
  let multi: Recorded | null = null;
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((command, ...rest: unknown[]) => {
    const name = command.name.toLowerCase();
    if (name === 'multi') multi = { command: 'multi', keys: [] };
    else if (name === 'exec' && multi) {
      recorded.push(multi);
      multi = null;
    } else if (multi) multi.keys.push(...command.getKeys().map(String));
    else recorded.push({ command: name, keys: command.getKeys().map(String) });
    return (send as (...args: unknown[]) => unknown)(command, ...rest);
  }) as Redis['sendCommand'];
  return recorded;
}

let redis: Redis;
let recorded: Recorded[];

beforeEach(() => {
  redis = testRedis();
  recorded = recording(redis);
});

afterEach(async () => {
  await dropKeys(redis, PREFIX);
  await dropKeys(redis, 'slot-test-budget');
  await redis.quit();
});

describe('Redis Cluster hash slots', () => {
  it('computes slots as Redis does, hash tags included', () => {
    // Values from CLUSTER KEYSLOT.
    expect(hashSlot('123456789')).toBe(12739);
    expect(hashSlot('foo')).toBe(12182);
    expect(hashSlot('{user1000}.following')).toBe(hashSlot('user1000'));
    expect(hashSlot('foo{}{bar}')).toBe(hashSlot('foo{}{bar}'));
    expect(hashSlot('{}x')).not.toBe(hashSlot(''));
  });

  it('every key of the records, counters and guards is in the slot of the prefix', async () => {
    const records = new OrderRecords(redis, PREFIX, { retentionDays: 90 });
    await records.markSending('1');
    await records.markRegistered('1', { orderNumber: 'PS-1', status: 'pending' });
    await records.markSkipped('2', 'not_paid', 'unpaid');
    await records.markFailed('3', 'refused');
    await records.clearSent('3', 'x');
    await records.recordFailedFingerprint('3', 'f');
    await records.reportEdit('1', 'g', ['receiver']);
    await records.requestRerun('1');
    await records.takeRerun('1');
    await records.noteEventRun('1');
    await records.takeEventRun('1');
    await records.flagCancelledAfterRegistration('1');
    await records.registeredSince(new Date(0));

    const tracking = new ShipmentTracking(redis, PREFIX, { lookbackDays: 60 });
    const side = {
      orderNumber: 'PS-1',
      status: 'pending',
      updatedAt: '2026-11-20T10:00:00+01:00',
      updatedAtMs: 1,
      stage: 'pending',
      createdAtMs: 1,
    };
    await tracking.track('1', side);
    await tracking.saveProviderSide('1', 1, { ...side, status: 'shipped', updatedAtMs: 2 }, true);
    await tracking.saveShopifySide('1', { writtenStatus: 'shipped' });
    await tracking.getMany(['1', '2']);
    const timeline = new OrderTimeline(redis, PREFIX);
    await timeline.note('1', { at: 1, kind: 'event', source: 'orders/create' });
    await timeline.read('1');
    await tracking.detailDone('1');
    await tracking.noteForeign(['9']);
    await tracking.saveCursor({ windowStart: 'w', page: 1, startedAtMs: 1, phase: 'list' });
    await tracking.finishCycle({ startedAtMs: 1 });
    await tracking.holdLock('me', 1000);
    await tracking.releaseLock('me');
    await tracking.holdWriteLock('1', 'me', 1000, 'm');
    await tracking.keepWriteLock('1', 'me', 1000);
    await tracking.releaseWriteLock('1', 'me');
    await tracking.learnLabel('shipped', 'Shipped');
    for await (const _ of tracking.references());

    await new Counters(redis, PREFIX).increment('shipments_registered');
    await countHmacFailure(redis, PREFIX);
    new StoreHealth(redis, PREFIX).report({ ok: true } as never);
    await new StoreHealth(redis, PREFIX).read();
    await claimPartnerEnvironment(redis, PREFIX, { apiUrl: 'http://p.test/api/v1', token: TOKEN });
    const queue = new Queue('slot-check', { connection: redis, prefix: PREFIX });
    const guard = new PartnerAuthGuard(redis, PREFIX, [queue], createLogger({ level: 'silent' }));
    await guard.tokenRefused();
    await guard.tokenAccepted();
    await queue.add('one', { orderId: '1' }, { jobId: 'order-1' });

    const slot = hashSlot(PREFIX);
    const withKeys = recorded.filter((r) => r.keys.length > 0);
    expect(withKeys.map((r) => r.command)).toEqual(
      expect.arrayContaining(['eval', 'multi', 'evalsha']),
    );
    for (const { command, keys } of withKeys) {
      expect({ command, keys, slots: [...new Set(keys.map(hashSlot))] }).toEqual({
        command,
        keys,
        slots: [slot],
      });
    }
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it("the request budget's scripts keep their keys in one slot", async () => {
    const budget = new PartnerBudget(redis, {
      token: TOKEN,
      limit: 5,
      windowMs: 1000,
      keyPrefix: 'slot-test-budget',
    });
    await budget.take('create');
    await budget.take('sync');
    await budget.block(10);
    await budget.stats();
    const scripts = recorded.filter((r) => r.keys.length > 1);
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    for (const { keys } of scripts) expect(new Set(keys.map(hashSlot)).size).toBe(1);
  });

  it.runIf(ON_CLUSTER)('the cluster agrees with the computed slots', async () => {
    const key = `${PREFIX}:order:1`;
    expect(await redis.call('CLUSTER', 'KEYSLOT', key)).toBe(hashSlot(key));
  });
});
