import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { inject } from 'vitest';
import { createRedis, isClusterUrl, scanKeys } from '../../src/queue/redis.js';

/** REDIS_URL if a Redis answers there, else the private one test/global-setup.ts started. */
export const REDIS_URL = inject('redisUrl');

/** Whether the tests run against a Redis Cluster (`npm run test:cluster`). */
export const ON_CLUSTER = isClusterUrl(REDIS_URL);

/** A Redis connection for tests, and a key prefix no other test uses. */
export function testRedis(): Redis {
  return createRedis(REDIS_URL, 'worker');
}

/** On a cluster the prefix is a hash tag, as QUEUE_PREFIX must be there. */
export function uniquePrefix(name: string): string {
  const prefix = `test-${name}-${randomUUID().slice(0, 8)}`;
  return ON_CLUSTER ? `{${prefix}}` : prefix;
}

/** Deletes every key under the prefix. */
export async function dropKeys(redis: Redis, prefix: string): Promise<void> {
  for await (const keys of scanKeys(redis, `${prefix}*`, 500)) {
    // One by one: keys of several prefixes may match, and a cluster refuses a DEL across slots.
    if (ON_CLUSTER) await Promise.all(keys.map((key) => redis.del(key)));
    else await redis.del(...keys);
  }
}
