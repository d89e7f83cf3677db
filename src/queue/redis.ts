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

/**
 * A fail-fast connection that is ready to use, for commands that do one thing and exit: with no
 * offline queue, a command sent before the connection is up would fail rather than wait.
 */
export async function connectedRedis(url: string, timeoutMs = 5_000): Promise<Redis> {
  const redis = createRedis(url, 'client');
  redis.on('error', () => {}); // reported below, once, instead of on every retry
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`Redis at ${redactUrl(url)} did not answer within ${timeoutMs} ms.`)),
        timeoutMs,
      );
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return redis;
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, '//***@');
}
