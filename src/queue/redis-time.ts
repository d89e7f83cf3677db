import type { Redis } from 'ioredis';

/** One clock for every process, whatever each machine's own says. */
export async function redisTime(redis: Redis): Promise<Date> {
  const [seconds, microseconds] = await redis.time();
  return new Date(Number(seconds) * 1000 + Math.floor(Number(microseconds) / 1000));
}

export const CLOCK_SKEW_WARN_MS = 60_000;
