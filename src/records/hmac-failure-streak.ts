import type { Redis } from 'ioredis';

/** Shopify signs every delivery: a streak of bad signatures means a wrong secret, not an attack. */
export const HMAC_FAILURE_STREAK_ALERT = 5;

/** Spans a quiet night; a streak that stops growing is forgotten after it. */
const STREAK_TTL_S = 7 * 24 * 3600;

function hmacStreakKey(prefix: string): string {
  return `${prefix}:webhooks:hmac-failure-streak`;
}

export async function countHmacFailure(redis: Redis, prefix: string): Promise<number> {
  const [[, count]] = (await redis
    .multi()
    .incr(hmacStreakKey(prefix))
    .expire(hmacStreakKey(prefix), STREAK_TTL_S)
    .exec()) as [[null, number], [null, number]];
  return count;
}

export async function endHmacFailureStreak(redis: Redis, prefix: string): Promise<void> {
  await redis.del(hmacStreakKey(prefix));
}

export async function hmacFailureStreak(redis: Redis, prefix: string): Promise<number> {
  return Number((await redis.get(hmacStreakKey(prefix))) ?? 0);
}

export function hmacStreakMessage(streak: number): string {
  return `${streak} webhooks in a row failed HMAC verification: check SHOPIFY_WEBHOOK_SECRET (the app's client secret, or the secret shown under Settings > Notifications for webhooks made in the admin).`;
}
