import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CostTicket, GrantedTicket, StoreCostGate } from './cost-gate.js';
import type { QueryCost } from './query-cost.js';

/**
 * The shop's Admin API cost bucket as every connector process sees it, held in Redis.
 *
 * Shopify's bucket holds `maximumAvailable` points and refills at `restoreRate` a second; a query
 * needs its whole requested cost available, is charged it up front and refunded down to its
 * actual cost after. The connector keeps to its own share of that bucket, `1 - reserveShare` of
 * both the points and the refill, so that the merchant's other apps always find the rest.
 *
 * The model is that share: a level (`avail`, may go below 0 while requests are booked ahead),
 * refilled by Redis server time. A request takes its requested cost; when the level is short it
 * books the points anyway and waits until the refill has covered them, so waiters go in turn
 * and nobody asks twice. Each answer refunds the difference to the actual cost and lowers the
 * level to what Shopify reports, less the reserve and the points booked by requests not yet sent:
 * other apps' use, and anything the model missed, show up there.
 *
 * Until Shopify first answers, the model assumes a standard plan (1,000 points, 100 a second).
 */
const READ_MODEL = `
local function now()
  if ARGV[1] ~= '' then return tonumber(ARGV[1]) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- The connector's share of Shopify's points or refill: all but the reserve.
local function share(x, reserve) return x - x * reserve end
local function model(key, reserve, t)
  local m = redis.call('HMGET', key, 'max', 'rate', 'avail', 'at')
  local max = tonumber(m[1]) or 1000
  local rate = tonumber(m[2]) or 100
  local capacity = share(max, reserve)
  local avail = tonumber(m[3]) or capacity
  local at = tonumber(m[4]) or t
  if t > at then avail = math.min(capacity, avail + (t - at) * share(rate, reserve) / 1000) end
  return max, rate, avail
end
local function save(key, avail, t, max, rate)
  redis.call('HSET', key, 'avail', avail, 'at', t, 'max', max, 'rate', rate)
  -- Once it would have refilled anyway, the model can go: a fresh one starts full.
  redis.call('PEXPIRE', key, math.ceil(max * 1000 / rate) + 60000)
end
`;

/** ARGV: now, reserve share, cost, maxWaitMs, member, graceMs. Returns ms until send, or -ms to defer. */
const TAKE_SCRIPT = `${READ_MODEL}
local key, booked, stats = KEYS[1], KEYS[2], KEYS[3]
local t = now()
local reserve, cost, maxWaitMs = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local max, rate, avail = model(key, reserve, t)
-- A document dearer than the whole share goes once the share is full.
local need = math.min(cost, share(max, reserve))
local waitMs = 0
if avail < need then waitMs = math.ceil((need - avail) * 1000 / share(rate, reserve)) end
if waitMs > maxWaitMs then
  save(key, avail, t, max, rate)
  redis.call('HINCRBY', stats, 'deferred', 1)
  return -waitMs
end
save(key, avail - cost, t, max, rate)
redis.call('HINCRBY', stats, 'taken', cost)
if waitMs > 0 then
  local keepMs = waitMs + tonumber(ARGV[6])
  redis.call('ZADD', booked, t + keepMs, ARGV[5] .. ':' .. cost)
  if redis.call('PTTL', booked) < keepMs then redis.call('PEXPIRE', booked, keepMs) end
  redis.call('HINCRBY', stats, 'waited', 1)
  redis.call('HINCRBY', stats, 'waitMs', waitMs)
end
return waitMs
`;

/**
 * ARGV: now, reserve share, refund, member ('' unless booked), then Shopify's maximumAvailable,
 * currentlyAvailable, restoreRate ('' when the answer had none), throttled (1/0).
 */
const SETTLE_SCRIPT = `${READ_MODEL}
local key, booked, stats = KEYS[1], KEYS[2], KEYS[3]
local t = now()
local reserve = tonumber(ARGV[2])
local max, rate, avail = model(key, reserve, t)
avail = avail + tonumber(ARGV[3])
if ARGV[4] ~= '' then redis.call('ZREM', booked, ARGV[4]) end
if ARGV[8] == '1' then redis.call('HINCRBY', stats, 'throttled', 1) end
if ARGV[5] ~= '' then
  max, rate = tonumber(ARGV[5]), tonumber(ARGV[7])
  redis.call('ZREMRANGEBYSCORE', booked, '-inf', t)
  local waiting = 0
  for _, member in ipairs(redis.call('ZRANGE', booked, 0, -1)) do
    waiting = waiting + tonumber(string.match(member, ':(%d+)$'))
  end
  local seen = tonumber(ARGV[6]) - max * reserve - waiting
  avail = math.min(avail, share(max, reserve), seen)
end
save(key, avail, t, max, rate)
return 0
`;

export interface SharedBucketOptions {
  /** The connector's QUEUE_PREFIX: one model per connector and shop. */
  prefix: string;
  shop: string;
  /** Share of the bucket (points and refill) left to other apps, 0 to 0.9. */
  reserveShare: number;
  /** How long a booked request may take to be sent before its booking is forgotten. */
  bookingGraceMs?: number;
  /** The model's clock in ms; default Redis server time, which every process shares. */
  clock?: () => number;
}

export interface SharedBucketState {
  /** The connector's share as the model holds it now (without the refill since the last use). */
  available: number;
  maximumAvailable: number;
  restoreRate: number;
  /** Points taken, requests that waited and for how long, deferred, answered THROTTLED. */
  taken: number;
  waited: number;
  waitMs: number;
  deferred: number;
  throttled: number;
}

type BucketRedis = Redis & {
  storeBucketTake(...args: (string | number)[]): Promise<number>;
  storeBucketSettle(...args: (string | number)[]): Promise<number>;
};

export class SharedStoreBucket implements StoreCostGate {
  private readonly redis: BucketRedis;
  private readonly keys: [string, string, string];
  private readonly reserve: number;

  constructor(
    redis: Redis,
    private readonly options: SharedBucketOptions,
  ) {
    if (!('storeBucketTake' in redis)) {
      redis.defineCommand('storeBucketTake', { numberOfKeys: 3, lua: TAKE_SCRIPT });
      redis.defineCommand('storeBucketSettle', { numberOfKeys: 3, lua: SETTLE_SCRIPT });
    }
    this.redis = redis as BucketRedis;
    const base = `${options.prefix}:shopify-bucket:${options.shop}`;
    this.keys = [base, `${base}:booked`, `${base}:stats`];
    this.reserve = Math.min(0.9, Math.max(0, options.reserveShare));
  }

  async take(cost: number, maxWaitMs: number): Promise<CostTicket> {
    const id = randomUUID();
    const waitMs = await this.redis.storeBucketTake(
      ...this.keys,
      this.now(),
      this.reserve,
      cost,
      Math.max(0, Math.floor(maxWaitMs)),
      id,
      this.options.bookingGraceMs ?? 60_000,
    );
    if (waitMs < 0) return { granted: false, deferMs: -waitMs };
    return { granted: true, cost, sendInMs: waitMs, id };
  }

  async settle(ticket: GrantedTicket, answer: QueryCost | undefined): Promise<void> {
    // Not run (THROTTLED): nothing charged. No answer at all: keep the charge, to be safe.
    const refund = answer ? ticket.cost - (answer.actual ?? 0) : 0;
    const status = answer?.throttleStatus;
    await this.redis.storeBucketSettle(
      ...this.keys,
      this.now(),
      this.reserve,
      refund,
      ticket.sendInMs > 0 ? `${ticket.id}:${ticket.cost}` : '',
      status?.maximumAvailable ?? '',
      status?.currentlyAvailable ?? '',
      status?.restoreRate ?? '',
      answer && answer.actual === null ? 1 : 0,
    );
  }

  /** What the model holds, for tests, the benchmark and status. */
  async state(): Promise<SharedBucketState> {
    const [model, stats] = await Promise.all([
      this.redis.hgetall(this.keys[0]),
      this.redis.hgetall(this.keys[2]),
    ]);
    const n = (raw: Record<string, string>, key: string, fallback = 0) =>
      raw[key] === undefined ? fallback : Number(raw[key]);
    const maximumAvailable = n(model, 'max', 1000);
    return {
      available: n(model, 'avail', maximumAvailable - maximumAvailable * this.reserve),
      maximumAvailable,
      restoreRate: n(model, 'rate', 100),
      taken: n(stats, 'taken'),
      waited: n(stats, 'waited'),
      waitMs: n(stats, 'waitMs'),
      deferred: n(stats, 'deferred'),
      throttled: n(stats, 'throttled'),
    };
  }

  private now(): number | string {
    return this.options.clock ? this.options.clock() : '';
  }
}
