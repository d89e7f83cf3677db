import { Redis } from 'ioredis';

/**
 * Asks Redis for a PONG once, without the retries a service connection has, so a missing Redis
 * is reported in two seconds instead of hanging. Returns why it failed, or null when it answers.
 */
export async function probeRedis(url: string, timeoutMs = 2_000): Promise<string | null> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let lastError: Error | undefined;
  // Without a listener, ioredis prints every connection error as unhandled.
  redis.on('error', (err: Error) => {
    lastError = err;
  });
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (error) {
    const cause = lastError ?? (error instanceof Error ? error : new Error(String(error)));
    return cause.message || cause.name;
  } finally {
    redis.disconnect();
  }
}
