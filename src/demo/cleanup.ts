import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { budgetKeyBase } from '../partner/budget.js';

/**
 * The budget is per token, not per queue prefix, so the demo uses a token of its own and
 * removes that token's budget too.
 */
export function budgetKeyPattern(token: string): string {
  return `${budgetKeyBase(token)}:*`;
}

/**
 * Removes everything the demo wrote to Redis: its queues (obliterated, jobs and schedulers
 * included), then every other key under its prefix (order records, counters, the reconciliation
 * watermark, webhook marks) and its token's budget. Returns how many keys there were.
 */
export async function removeDemoKeys(
  redis: Redis,
  prefix: string,
  queues: Queue[],
  partnerToken: string,
): Promise<number> {
  const patterns = [`${prefix}:*`, budgetKeyPattern(partnerToken)];
  let count = 0;
  for (const pattern of patterns) count += (await scanKeys(redis, pattern)).length;

  for (const queue of queues) await queue.obliterate({ force: true });
  for (const pattern of patterns) {
    const keys = await scanKeys(redis, pattern);
    if (keys.length > 0) await redis.del(...keys);
  }
  return count;
}

export async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}
