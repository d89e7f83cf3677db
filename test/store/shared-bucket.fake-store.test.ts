import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeStore } from '../../src/sandbox/store/fake-store.js';
import { startFakeStore } from '../../src/sandbox/store/server.js';
import { withStorePriority } from '../../src/store/transport/priority.js';
import { SharedStoreBucket } from '../../src/store/transport/shared-bucket.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';
import { ACCESS_TOKEN, SHOP, testClient, WEBHOOK_SECRET } from './helpers.js';

/**
 * Three connector processes (three store clients, each with its own Redis connection and its
 * own model instance) hammer a fake store whose cost bucket is on: through the shared model they
 * see few or no THROTTLED answers and never dip into the share the reserve leaves unused, also
 * when follow-ups go ahead with points registrations booked.
 */
const RESERVE_SHARE = 0.2;
const BUCKET = { maximumAvailable: 2000, restoreRate: 1000 };

let store: FakeStore;
const connections: Redis[] = [];
let prefix: string;

beforeEach(async () => {
  prefix = uniquePrefix('shopify-bucket-three');
  store = await startFakeStore({
    shop: SHOP,
    accessToken: ACCESS_TOKEN,
    webhookSecret: WEBHOOK_SECRET,
    costBucket: BUCKET,
  });
});

afterEach(async () => {
  await store.close();
  if (connections[0]) await dropKeys(connections[0], prefix);
  await Promise.all(connections.splice(0).map((c) => c.quit()));
});

function connectorProcess() {
  const redis = testRedis();
  connections.push(redis);
  const bucket = new SharedStoreBucket(redis, {
    prefix,
    shop: SHOP,
    reserveShare: RESERVE_SHARE,
    followUpReserve: 0.8,
  });
  const client = testClient({
    adminApiUrl: store.url,
    bucket,
    maxBudgetWaitMs: 60_000,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
  return { client, bucket };
}

describe('three processes sharing one Shopify bucket in Redis', () => {
  it.each([
    ['every worker in turn', (_worker: number) => false],
    ['half of them follow-ups, going ahead', (worker: number) => worker % 2 === 1],
  ])('keep Shopify from throttling them and leave the reserve unused: %s', async (_, followsUp) => {
    const processes = [connectorProcess(), connectorProcess(), connectorProcess()];
    // What a process does at start: one cheap request, from which the model learns the bucket.
    await processes[0]!.client.shopIdentity();
    const [order] = store.orders();
    const orderId = order!.id;

    // Each process runs four workers; each worker reads the whole order (605 points) and tags
    // it twice (12 each): about 7,500 points against a share of 1,600 refilled at 800/s.
    await Promise.all(
      processes.flatMap(({ client }) =>
        Array.from({ length: 4 }, (_, worker) => {
          const work = async () => {
            await client.getOrder(orderId);
            await client.addOrderTags(orderId, [`w${worker}-a`]);
            await client.addOrderTags(orderId, [`w${worker}-b`]);
          };
          return followsUp(worker) ? withStorePriority('follow-up', work) : work();
        }),
      ),
    );

    const seen = store.costBucket()!;
    const answered = store.requests.filter((r) => r.outcome === 'ok').length;
    expect(answered).toBe(1 + 3 * 4 * 3);
    expect(seen.throttled).toBeLessThanOrEqual(1);
    // The bucket never went into the 400 points of the reserve (a few points of clock skew
    // between Redis and the fake store aside).
    expect(seen.lowest).toBeGreaterThanOrEqual(BUCKET.maximumAvailable * RESERVE_SHARE - 10);
    const model = await processes[2]!.bucket.state();
    expect(model).toMatchObject({ maximumAvailable: 2000, restoreRate: 1000 });
    expect(model.waited).toBeGreaterThan(0);
  });
});
