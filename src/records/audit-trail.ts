import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Ids and order numbers only, no personal data. */
export interface StaffAction {
  at: number;
  /** The board's login user, or the OS user who ran the command. */
  who: string;
  via: 'board' | 'cli';
  action: string;
  queue?: string;
  /** At most MAX_IDS; `count` says how many in all. */
  jobIds: string[];
  orderIds: string[];
  count: number;
  detail?: string;
}

export const AUDIT_RETENTION_DAYS = 90;
const MAX_ACTIONS = 20_000;
const MAX_ACTIONS_PER_ORDER = 100;
/** A "retry all" of thousands of jobs stays one small entry. */
export const MAX_IDS = 50;

const RETENTION_MS = AUDIT_RETENTION_DAYS * 24 * 3600_000;

function keys(prefix: string) {
  return {
    all: `${prefix}:audit`,
    order: (orderId: string) => `${prefix}:audit:order:${orderId}`,
    /** For /metrics: counts survive the trail's trimming. */
    counts: `${prefix}:audit:counts`,
  };
}

export async function recordStaffAction(
  redis: Redis,
  prefix: string,
  action: StaffAction,
  bounds: { maxActions: number } = { maxActions: MAX_ACTIONS },
): Promise<void> {
  const k = keys(prefix);
  const entry: StaffAction & { key: string } = {
    ...action,
    jobIds: action.jobIds.slice(0, MAX_IDS),
    orderIds: [...new Set(action.orderIds)].slice(0, MAX_IDS),
    // Two identical actions in the same millisecond are still two members of the sorted set.
    key: randomUUID().slice(0, 8),
  };
  const member = JSON.stringify(entry);
  const multi = redis
    .multi()
    .zadd(k.all, action.at, member)
    .zremrangebyscore(k.all, '-inf', `(${action.at - RETENTION_MS}`)
    .zremrangebyrank(k.all, 0, -(bounds.maxActions + 1))
    .hincrby(k.counts, `${action.via}:${action.action}`, 1);
  for (const orderId of entry.orderIds) {
    multi
      .zadd(k.order(orderId), action.at, member)
      .zremrangebyrank(k.order(orderId), 0, -(MAX_ACTIONS_PER_ORDER + 1))
      .expire(k.order(orderId), RETENTION_MS / 1000);
  }
  await multi.exec();
}

export async function listStaffActions(
  redis: Redis,
  prefix: string,
  options: { orderId?: string; limit?: number; since?: number } = {},
): Promise<StaffAction[]> {
  const k = keys(prefix);
  const key = options.orderId ? k.order(options.orderId) : k.all;
  const limit = Math.max(1, options.limit ?? 100);
  const oldest = Math.max(options.since ?? 0, Date.now() - RETENTION_MS);
  const members = await redis.zrevrangebyscore(key, '+inf', oldest, 'LIMIT', 0, limit);
  return members.map((member) => {
    const { key: _key, ...action } = JSON.parse(member) as StaffAction & { key: string };
    return action;
  });
}

export async function countStaffActions(redis: Redis, prefix: string) {
  const raw = await redis.hgetall(keys(prefix).counts);
  return Object.entries(raw).map(([field, value]) => {
    const at = field.indexOf(':');
    return { via: field.slice(0, at), action: field.slice(at + 1), count: Number(value) };
  });
}
