import type { Redis } from 'ioredis';

/** Redis's clock (`TIME`): one clock for every process, whatever each machine's own says. */
export async function redisTime(redis: Redis): Promise<Date> {
  const [seconds, microseconds] = await redis.time();
  return new Date(Number(seconds) * 1000 + Math.floor(Number(microseconds) / 1000));
}

/** Past this, the local clock is said to be wrong. */
export const CLOCK_SKEW_WARN_MS = 60_000;
