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

export function redisHelp(url: string, reason: string): string {
  return [
    `Redis does not answer at ${url} (${reason}).`,
    '',
    'The demo needs a Redis (the queues live there). Start one, then run `npm run demo` again:',
    '  docker run -d --name connector-redis -p 6379:6379 redis:7-alpine',
    '  docker compose up -d redis          # from this repository',
    '  sudo apt-get install redis-server   # Debian/Ubuntu, starts it as a service',
    'Or point the demo at another one: REDIS_URL=redis://host:6379 npm run demo',
  ].join('\n');
}
