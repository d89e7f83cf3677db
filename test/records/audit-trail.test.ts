import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { ConnectorMetrics } from '../../src/metrics/registry.js';
import { registerStaffActionMetrics } from '../../src/metrics/staff-actions.js';
import {
  AUDIT_RETENTION_DAYS,
  listStaffActions,
  MAX_IDS,
  recordStaffAction,
  type StaffAction,
} from '../../src/records/audit-trail.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';

const redis: Redis = testRedis();
let prefix: string;

beforeEach(() => {
  prefix = uniquePrefix('audit');
});
afterEach(async () => dropKeys(redis, prefix));
afterAll(async () => {
  await redis.quit();
});

const DAY_MS = 24 * 3600_000;

function action(overrides: Partial<StaffAction> = {}): StaffAction {
  return {
    at: Date.now(),
    who: 'ops',
    via: 'board',
    action: 'retry',
    queue: 'create-shipment',
    jobIds: ['order-5550003'],
    orderIds: ['5550003'],
    count: 1,
    ...overrides,
  };
}

describe('the audit trail of staff actions', () => {
  it('lists actions newest first, all of them or those of one order', async () => {
    const now = Date.now();
    await recordStaffAction(redis, prefix, action({ at: now - 2000 }));
    await recordStaffAction(
      redis,
      prefix,
      action({ at: now - 1000, who: 'alice', via: 'cli', action: 'replay', orderIds: ['5550004'] }),
    );
    await recordStaffAction(
      redis,
      prefix,
      action({ at: now, action: 'clean', jobIds: [], orderIds: [], count: 7 }),
    );

    const all = await listStaffActions(redis, prefix);
    expect(all.map((a) => a.action)).toEqual(['clean', 'replay', 'retry']);
    expect(all[0]).toEqual(
      action({ at: now, action: 'clean', jobIds: [], orderIds: [], count: 7 }),
    );

    const ofOrder = await listStaffActions(redis, prefix, { orderId: '5550004' });
    expect(ofOrder).toEqual([
      action({ at: now - 1000, who: 'alice', via: 'cli', action: 'replay', orderIds: ['5550004'] }),
    ]);
    expect(await listStaffActions(redis, prefix, { limit: 1 })).toHaveLength(1);
    expect(await listStaffActions(redis, prefix, { since: now - 1500 })).toHaveLength(2);
  });

  it('keeps two identical actions in the same millisecond as two', async () => {
    const same = action();
    await recordStaffAction(redis, prefix, same);
    await recordStaffAction(redis, prefix, same);
    expect(await listStaffActions(redis, prefix)).toEqual([same, same]);
  });

  it('drops what is older than the retention, and the oldest past the size bound', async () => {
    const now = Date.now();
    await recordStaffAction(
      redis,
      prefix,
      action({ at: now - (AUDIT_RETENTION_DAYS + 1) * DAY_MS }),
    );
    await recordStaffAction(
      redis,
      prefix,
      action({ at: now - 31 * DAY_MS, action: 'a month ago' }),
    );
    await recordStaffAction(redis, prefix, action({ at: now, action: 'now' }));
    // A month back is kept; past the retention is gone, from the store itself.
    expect((await listStaffActions(redis, prefix)).map((a) => a.action)).toEqual([
      'now',
      'a month ago',
    ]);
    expect(await redis.zcard(`${prefix}:audit`)).toBe(2);

    for (let i = 1; i <= 3; i++) {
      await recordStaffAction(redis, prefix, action({ at: now + i, action: `later ${i}` }), {
        maxActions: 3,
      });
    }
    expect((await listStaffActions(redis, prefix)).map((a) => a.action)).toEqual([
      'later 3',
      'later 2',
      'later 1',
    ]);
  });

  it('keeps one entry small however many jobs an action touched, with their number', async () => {
    const ids = Array.from({ length: 500 }, (_, i) => String(5550000 + i));
    await recordStaffAction(
      redis,
      prefix,
      action({ jobIds: ids.map((id) => `order-${id}`), orderIds: ids, count: 500 }),
    );
    const [entry] = await listStaffActions(redis, prefix);
    expect(entry?.count).toBe(500);
    expect(entry?.jobIds).toHaveLength(MAX_IDS);
    expect(entry?.orderIds).toHaveLength(MAX_IDS);
  });

  it('counts actions by kind and way for /metrics', async () => {
    await recordStaffAction(redis, prefix, action());
    await recordStaffAction(redis, prefix, action());
    await recordStaffAction(redis, prefix, action({ via: 'cli', action: 'replay' }));
    const metrics = new ConnectorMetrics({
      logger: createLogger({ level: 'silent' }),
      processMetrics: false,
    });
    registerStaffActionMetrics(metrics, { redis, prefix });
    const { body } = await metrics.render();
    expect(body).toContain('connector_staff_actions_total{action="retry",via="board"} 2');
    expect(body).toContain('connector_staff_actions_total{action="replay",via="cli"} 1');
  });
});
