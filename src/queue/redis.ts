import { Redis, type RedisOptions } from 'ioredis';

/**
 * Redis connections. Workers block on Redis and must never give up a command
 * (`maxRetriesPerRequest: null`, as BullMQ requires). Everything on a request path (the webhook
 * intake, health checks) fails fast instead, so a Redis outage becomes a quick 503, not a hang.
 */
export function createRedis(url: string, purpose: 'worker' | 'client'): Redis {
  const options: RedisOptions =
    purpose === 'worker'
      ? { maxRetriesPerRequest: null, enableReadyCheck: true }
      : { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 };
  return new Redis(url, { ...options, lazyConnect: false });
}
