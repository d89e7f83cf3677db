import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CostRequest, CostTicket, GrantedTicket, StoreCostGate } from './cost-gate.js';
import type { QueryCost } from './query-cost.js';

/**
 * The shop's Admin API cost bucket, shared by every connector process through Redis.
 *
 * Shopify charges a query's whole requested cost up front (it must be available) and refunds down
 * to the actual cost; limits are per app and store. `reserveShare` leaves headroom for the
 * merchant's own scripts that use the connector's credentials.
 * - A request that does not fit books its expected cost (the document's last actual cost) and the
 *   time the refill covers it; it then asks again ahead of every later booking.
 * - Follow-ups (StorePriority) may use registrations' booked points while under `followUpReserve`
 *   of the points sent lately; past it all wait in turn, so registrations never starve.
 * - An answer's `currentlyAvailable` becomes the level, less requests sent after it (not yet
 *   charged then) and bookings; an answer older than one adopted is ignored.
 * Until Shopify first answers, it assumes a standard plan (1,000 points, 100 a second).
 */
const READ_MODEL = `
-- The connector's share of Shopify's points or refill: all but the reserve.
local function share(x, reserve) return x - x * reserve end
local function save(key, avail, t, max, rate)
  redis.call('HSET', key, 'avail', avail, 'at', t, 'max', max, 'rate', rate)
  -- Once it would have refilled anyway, the model can go: a fresh one starts full.
  redis.call('PEXPIRE', key, math.ceil(max * 1000 / rate) + 60000)
end
-- Members are "<id>:<points>", bookings "<priority>:<id>:<points>".
local function points(member) return tonumber(string.match(member, ':([%d.]+)$')) end
local function total(members)
  local sum = 0
  for _, member in ipairs(members) do sum = sum + points(member) end
  return sum
end
local function keep(set, ms)
  if redis.call('PTTL', set) < ms then redis.call('PEXPIRE', set, ms) end
end
local key, flight, booked, stats, actuals = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local t = tonumber(ARGV[1])
if ARGV[1] == '' then
  local time = redis.call('TIME')
  t = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local reserve = tonumber(ARGV[2])
local m = redis.call('HMGET', key, 'max', 'rate', 'avail', 'at')
local max = tonumber(m[1]) or 1000
local rate = tonumber(m[2]) or 100
local capacity = share(max, reserve)
local avail = tonumber(m[3]) or capacity
local at = tonumber(m[4]) or t
if t > at then avail = math.min(capacity, avail + (t - at) * share(rate, reserve) / 1000) end
`;

/**
 * KEYS: model, in flight, booked, stats, actual costs. ARGV: now, reserve share, cost, maxWaitMs,
 * id, graceMs, operation, the caller's booking ('' for a new request), priority, follow-ups'
 * reserve. Returns ms until it should ask again (0: send now) and its booking, or -ms to defer.
 */
const TAKE_SCRIPT = `${READ_MODEL}
local cost, maxWaitMs = tonumber(ARGV[3]), tonumber(ARGV[4])
local id, grace, mine = ARGV[5], tonumber(ARGV[6]), ARGV[8]
local priority, followUpReserve = ARGV[9], tonumber(ARGV[10])
local followUp = priority == 'follow-up'
redis.call('ZREMRANGEBYSCORE', booked, '-inf', t - grace)
-- Bookings hold points of Shopify's level, which the refill never takes past the bucket's size.
avail = math.min(avail, share(max, reserve) - total(redis.call('ZRANGE', booked, 0, -1)))
-- Points sent lately, all and follow-ups', fading over the time the bucket takes to refill.
local lately = redis.call('HMGET', key, 'lately', 'latelyFollowUp', 'latelyAt')
local fade = math.exp(-math.max(0, t - (tonumber(lately[3]) or t)) * rate / (max * 1000))
local sent, sentFollowUp = (tonumber(lately[1]) or 0) * fade, (tonumber(lately[2]) or 0) * fade
local ahead = followUpReserve > 0 and sentFollowUp <= followUpReserve * sent
-- Whether a booking waits for this request: one made after it, and while follow-ups go ahead,
-- every registration's for a follow-up and no follow-up's for a registration.
local function behind(member, score, myScore)
  local isFollowUp = string.sub(member, 1, 10) == 'follow-up:'
  if ahead and isFollowUp ~= followUp then return followUp end
  return myScore ~= nil and score > myScore
end
-- What this request may use: the level, and the points booked by those that wait for it.
-- A booking dropped after its grace (ZSCORE's false) reads as none: a new request.
local myScore = nil
if mine ~= '' then myScore = tonumber(redis.call('ZSCORE', booked, mine)) end
if myScore then
  redis.call('ZREM', booked, mine)
  avail = avail + points(mine)
end
local room = avail
if myScore or (ahead and followUp) then
  local bookings = redis.call('ZRANGE', booked, 0, -1, 'WITHSCORES')
  for i = 1, #bookings, 2 do
    if behind(bookings[i], tonumber(bookings[i + 1]), myScore) then
      room = room + points(bookings[i])
    end
  end
end
local expected = math.min(cost, tonumber(redis.call('HGET', actuals, ARGV[7])) or cost)
-- A document dearer than the whole share goes once the share is full.
local need = math.min(cost, share(max, reserve))
if room >= need then
  save(key, avail - cost, t, max, rate)
  redis.call('HSET', key, 'lately', sent + expected, 'latelyAt', t,
    'latelyFollowUp', sentFollowUp + (followUp and expected or 0))
  redis.call('ZADD', flight, t, id .. ':' .. cost)
  keep(flight, grace)
  if mine == '' then redis.call('HINCRBY', stats, 'taken', cost) end
  return {0, ''}
end
local waitMs = math.max(1, math.ceil((need - room) * 1000 / share(rate, reserve)))
if waitMs > maxWaitMs then
  save(key, avail, t, max, rate)
  redis.call('HINCRBY', stats, 'deferred', 1)
  return {-waitMs, ''}
end
local booking = priority .. ':' .. id .. ':' .. expected
save(key, avail - expected, t, max, rate)
redis.call('ZADD', booked, t + waitMs, booking)
keep(booked, waitMs + grace)
if mine == '' then
  redis.call('HINCRBY', stats, 'taken', cost)
  redis.call('HINCRBY', stats, 'waited', 1)
end
redis.call('HINCRBY', stats, 'waitMs', waitMs)
return {waitMs, booking}
`;

/**
 * KEYS as for TAKE. ARGV: now, reserve share, refund, member, then Shopify's maximumAvailable,
 * currentlyAvailable, restoreRate ('' when the answer had none), throttled (1/0), operation,
 * actual cost ('' when it did not run), graceMs.
 */
const SETTLE_SCRIPT = `${READ_MODEL}
local sentAt = redis.call('ZSCORE', flight, ARGV[4])
redis.call('ZREM', flight, ARGV[4])
if ARGV[8] == '1' then redis.call('HINCRBY', stats, 'throttled', 1) end
if ARGV[10] ~= '' then
  redis.call('HSET', actuals, ARGV[9], ARGV[10])
  redis.call('PEXPIRE', actuals, 86400000)
end
if sentAt and ARGV[6] ~= '' then
  max, rate = tonumber(ARGV[5]), tonumber(ARGV[7])
  sentAt = tonumber(sentAt)
  -- An answer to a request sent before the one whose answer was adopted is older news.
  if sentAt >= (tonumber(redis.call('HGET', key, 'seenAt')) or -1) then
    redis.call('ZREMRANGEBYSCORE', flight, '-inf', t - tonumber(ARGV[11]))
    local later = total(redis.call('ZRANGEBYSCORE', flight, sentAt, '+inf'))
      + total(redis.call('ZRANGE', booked, 0, -1))
    avail = math.min(share(max, reserve), tonumber(ARGV[6]) - max * reserve - later)
    redis.call('HSET', key, 'seenAt', sentAt)
  end
elseif sentAt then
  avail = math.min(share(max, reserve), avail + tonumber(ARGV[3]))
end
save(key, avail, t, max, rate)
return 0
`;

export interface SharedBucketOptions {
  /** The connector's QUEUE_PREFIX: one model per connector and shop. */
  prefix: string;
  shop: string;
  /** Share of the bucket (points and refill) left unused, 0 to 0.9. */
  reserveShare: number;
  /** Share of recent points (0 to 0.9) follow-ups may take ahead of waiting registrations. */
  followUpReserve?: number;
  /** The model's clock in ms; default Redis server time, which every process shares. */
  clock?: () => number;
}

/** How long a request may stay booked or unanswered before the model forgets it. */
const BOOKING_GRACE_MS = 60_000;

type BucketRedis = Redis & {
  storeBucketTake(...args: (string | number)[]): Promise<[number, string]>;
  storeBucketSettle(...args: (string | number)[]): Promise<number>;
};

export class SharedStoreBucket implements StoreCostGate {
  private readonly redis: BucketRedis;
  private readonly keys: [string, string, string, string, string];
  private readonly reserve: number;
  private readonly followUpReserve: number;

  constructor(
    redis: Redis,
    private readonly options: SharedBucketOptions,
  ) {
    if (!('storeBucketTake' in redis)) {
      redis.defineCommand('storeBucketTake', { numberOfKeys: 5, lua: TAKE_SCRIPT });
      redis.defineCommand('storeBucketSettle', { numberOfKeys: 5, lua: SETTLE_SCRIPT });
    }
    this.redis = redis as BucketRedis;
    const base = `${options.prefix}:shopify-bucket:${options.shop}`;
    this.keys = [base, `${base}:flight`, `${base}:booked`, `${base}:stats`, `${base}:actual`];
    this.reserve = Math.min(0.9, Math.max(0, options.reserveShare));
    this.followUpReserve = Math.min(0.9, Math.max(0, options.followUpReserve ?? 0));
  }

  async take(
    { cost, operation, priority, booked }: CostRequest,
    maxWaitMs: number,
  ): Promise<CostTicket> {
    const id = booked?.id ?? randomUUID();
    const [waitMs, booking] = await this.redis.storeBucketTake(
      ...this.keys,
      this.options.clock?.() ?? '',
      this.reserve,
      cost,
      Math.max(0, Math.floor(maxWaitMs)),
      id,
      BOOKING_GRACE_MS,
      operation,
      booked?.booking ?? '',
      priority ?? 'registration',
      this.followUpReserve,
    );
    if (waitMs < 0) return { granted: false, deferMs: -waitMs };
    return { granted: true, cost, operation, sendInMs: waitMs, id, ...(waitMs > 0 && { booking }) };
  }

  async settle(ticket: GrantedTicket, answer: QueryCost | undefined): Promise<void> {
    // Not run (THROTTLED): nothing charged. No answer at all: keep the charge, to be safe.
    const refund = answer ? ticket.cost - (answer.actual ?? 0) : 0;
    const status = answer?.throttleStatus;
    await this.redis.storeBucketSettle(
      ...this.keys,
      this.options.clock?.() ?? '',
      this.reserve,
      refund,
      `${ticket.id}:${ticket.cost}`,
      status?.maximumAvailable ?? '',
      status?.currentlyAvailable ?? '',
      status?.restoreRate ?? '',
      answer && answer.actual === null ? 1 : 0,
      ticket.operation,
      answer?.actual ?? '',
      BOOKING_GRACE_MS,
    );
  }

  /**
   * The connector's share as the model holds it now (without the refill since the last use), and
   * the counts of points taken, requests that waited (and for how long), deferred and THROTTLED.
   */
  async state() {
    const [model, stats] = await Promise.all([
      this.redis.hgetall(this.keys[0]),
      this.redis.hgetall(this.keys[3]),
    ]);
    const n = (raw: Record<string, string>, key: string, fallback = 0) =>
      raw[key] === undefined ? fallback : Number(raw[key]);
    const maximumAvailable = n(model, 'max', 1000);
    const sent = n(model, 'lately');
    return {
      available: n(model, 'avail', maximumAvailable - maximumAvailable * this.reserve),
      maximumAvailable,
      restoreRate: n(model, 'rate', 100),
      followUpShare: sent > 0 ? n(model, 'latelyFollowUp') / sent : 0,
      taken: n(stats, 'taken'),
      waited: n(stats, 'waited'),
      waitMs: n(stats, 'waitMs'),
      deferred: n(stats, 'deferred'),
      throttled: n(stats, 'throttled'),
    };
  }
}
