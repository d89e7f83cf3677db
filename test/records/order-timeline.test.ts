import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assembleTimeline } from '../../src/compose/order-timeline.js';
import type { StaffAction } from '../../src/records/audit-trail.js';
import {
  decodeEntry,
  encodeEntry,
  OrderTimeline,
  type StoredTimelineEntry,
  TIMELINE_KEEP_MS,
  TIMELINE_LIMIT,
} from '../../src/records/order-timeline.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';

let redis: Redis;
let prefix: string;
let timeline: OrderTimeline;

beforeEach(() => {
  redis = testRedis();
  prefix = uniquePrefix('timeline');
  timeline = new OrderTimeline(redis, prefix);
});

afterEach(async () => {
  await dropKeys(redis, prefix);
  await redis.quit();
});

const T0 = Date.parse('2026-11-26T09:00:00Z');

describe('the order timeline', () => {
  it('keeps each kind of entry as it was noted, a status with spaces and a request with no answer included', () => {
    const entries: StoredTimelineEntry[] = [
      { at: T0, kind: 'event', source: 'orders/create' },
      { at: T0, kind: 'provider-request', method: 'POST', path: '/shipments', status: 201 },
      {
        at: T0,
        kind: 'provider-request',
        method: 'GET',
        path: '/shipments/{reference}',
        status: null,
      },
      { at: T0, kind: 'provider-status', status: 'held at customs' },
      { at: T0, kind: 'shopify-write', write: 'order marks: registered' },
    ];
    for (const entry of entries) expect(decodeEntry(encodeEntry(entry))).toEqual(entry);
    expect(decodeEntry('not an entry')).toBeNull();
  });

  it('keeps the newest entries of an order only, for a bounded time after the last one', async () => {
    for (let i = 0; i < TIMELINE_LIMIT + 5; i += 1) {
      await timeline.note('5550001', { at: T0 + i, kind: 'event', source: `e${i}` });
    }
    const kept = await timeline.read('5550001', T0);
    expect(kept).toHaveLength(TIMELINE_LIMIT);
    expect(kept[0]).toMatchObject({ source: 'e5' });
    expect(kept.at(-1)).toMatchObject({ source: `e${TIMELINE_LIMIT + 4}` });
    const ttl = await redis.pttl(timeline.key('5550001'));
    expect(ttl).toBeGreaterThan(TIMELINE_KEEP_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(TIMELINE_KEEP_MS);
    // Read 61 days on, nothing of it is shown, though the key lives on with newer entries.
    expect(await timeline.read('5550001', T0 + 61 * 24 * 3600_000)).toEqual([]);
  });

  it('puts the stored entries, the jobs BullMQ keeps and staff actions into one story in time order', () => {
    const staff: StaffAction = {
      at: T0 + 5_000,
      who: 'anna',
      via: 'board',
      action: 'retry',
      queue: 'create-shipment',
      jobIds: ['order-5550003'],
      orderIds: ['5550003'],
      count: 1,
    };
    const story = assembleTimeline({
      now: T0 + 10_000,
      stored: [
        {
          at: T0 + 1_000,
          kind: 'provider-request',
          method: 'POST',
          path: '/shipments',
          status: 422,
        },
        { at: T0 - 61 * 24 * 3600_000, kind: 'event', source: 'too-old' },
      ],
      jobs: [
        {
          queue: 'create-shipment',
          id: 'order-5550003',
          state: 'failed',
          attemptsMade: 1,
          addedAt: T0,
          processedAt: T0 + 500,
          finishedAt: T0 + 2_000,
          failedReason: 'Order #1003 cannot be shipped as it is',
          logs: ['loaded order #1003'],
        },
      ],
      staffActions: [staff],
    });
    expect(story.map((e) => [e.at, e.kind])).toEqual([
      ['2026-11-26T09:00:00.000Z', 'job-queued'],
      ['2026-11-26T09:00:01.000Z', 'provider-request'],
      ['2026-11-26T09:00:02.000Z', 'job-run'],
      ['2026-11-26T09:00:05.000Z', 'staff-action'],
    ]);
    expect(story[2]).toMatchObject({
      state: 'failed',
      reason: 'Order #1003 cannot be shipped as it is',
    });
    expect(story[3]).toEqual({
      at: '2026-11-26T09:00:05.000Z',
      kind: 'staff-action',
      who: 'anna',
      via: 'board',
      action: 'retry',
      queue: 'create-shipment',
      count: 1,
    });
  });
});
