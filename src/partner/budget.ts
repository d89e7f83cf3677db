import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ConfirmOutcome, GateDecision, RequestGate, RequestPriority } from './gate.js';

/** `now` in ms: the clock argument when given, else Redis server time. */
const nowLua = (arg: string) => `local now = tonumber(${arg})
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end`;

/**
 * Scored by Redis server time, so processes agree on the clock. While both kinds wait, creates
 * leave `reserve` slots per window to sync and sync gets no more than `reserve`.
 */
const TAKE_SCRIPT = `
local log, syncLog, blocked, waitingCreate, waitingSync, stats = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local windowMs = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local reserve = tonumber(ARGV[3])
local priority = ARGV[4]
local member = ARGV[5]
local markerMs = tonumber(ARGV[6])

${nowLua('ARGV[7]')}

local function deny(waitMs)
  if waitMs < 1 then waitMs = 1 end
  local marker = (priority == 'create') and waitingCreate or waitingSync
  redis.call('SET', marker, '1', 'PX', waitMs + markerMs)
  redis.call('HINCRBY', stats, 'denied', 1)
  redis.call('HINCRBY', stats, 'waitMs', waitMs)
  return waitMs
end

local blockedMs = redis.call('PTTL', blocked)
if blockedMs > 0 then return deny(blockedMs) end

redis.call('ZREMRANGEBYSCORE', log, '-inf', now - windowMs)
redis.call('ZREMRANGEBYSCORE', syncLog, '-inf', now - windowMs)
local count = redis.call('ZCARD', log)
local syncCount = redis.call('ZCARD', syncLog)

local function untilNextSlot()
  local oldest = redis.call('ZRANGE', log, 0, 0, 'WITHSCORES')
  if oldest[2] == nil then return 1 end
  return tonumber(oldest[2]) + windowMs - now + 1
end

if count >= limit then return deny(untilNextSlot()) end
if priority == 'create' then
  local heldForSync = reserve - syncCount
  if heldForSync > 0 and count >= limit - heldForSync then
    local syncWaitingMs = redis.call('PTTL', waitingSync)
    -- Back when a slot frees, or sooner if sync stops waiting and leaves its share unused.
    if syncWaitingMs > 0 then return deny(math.min(untilNextSlot(), syncWaitingMs + 1)) end
  end
else
  if syncCount >= reserve and redis.call('EXISTS', waitingCreate) == 1 then
    -- Sync has had its share while creates wait: back when its oldest request leaves the window.
    local oldestSync = redis.call('ZRANGE', syncLog, 0, 0, 'WITHSCORES')
    if oldestSync[2] == nil then return deny(untilNextSlot()) end
    return deny(tonumber(oldestSync[2]) + windowMs - now + 1)
  end
end

redis.call('ZADD', log, now, member)
if priority ~= 'create' then redis.call('ZADD', syncLog, now, member) end
redis.call('PEXPIRE', log, windowMs)
redis.call('PEXPIRE', syncLog, windowMs)
redis.call('HINCRBY', stats, 'sent', 1)
return 0
`;

const BLOCK_SCRIPT = `
local ttl = redis.call('PTTL', KEYS[1])
local waitMs = math.max(1, tonumber(ARGV[1]))
if ttl < waitMs then redis.call('SET', KEYS[1], '1', 'PX', waitMs) end
redis.call('HINCRBY', KEYS[2], 'rateLimited', 1)
return 0
`;

/** Moves a place taken ahead to the time the provider sees; during a 429 block answers -1. */
const CONFIRM_SCRIPT = `
${nowLua('ARGV[2]')}
if redis.call('ZSCORE', KEYS[1], ARGV[1]) == false then return 0 end
if redis.call('PTTL', KEYS[3]) > 0 then return -1 end
redis.call('ZADD', KEYS[1], 'XX', now, ARGV[1])
redis.call('ZADD', KEYS[2], 'XX', now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1
`;

const RELEASE_SCRIPT = `
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HINCRBY', KEYS[3], 'sent', -1)
return 1
`;

export interface PartnerBudgetOptions {
  /** Only a hash of it names the keys, so it never lands in Redis. */
  token: string;
  limit: number;
  windowMs: number;
  syncReserve?: number;
  /** Added to the window against network jitter. */
  safetyMarginMs?: number;
  clock?: () => number;
  /** Per token, not per queue prefix. */
  keyPrefix?: string;
}

const COMMANDS = {
  partnerBudgetTake: { numberOfKeys: 6, lua: TAKE_SCRIPT },
  partnerBudgetBlock: { numberOfKeys: 2, lua: BLOCK_SCRIPT },
  partnerBudgetConfirm: { numberOfKeys: 3, lua: CONFIRM_SCRIPT },
  partnerBudgetRelease: { numberOfKeys: 3, lua: RELEASE_SCRIPT },
};

type BudgetRedis = Redis &
  Record<keyof typeof COMMANDS, (...args: (string | number)[]) => Promise<number>>;

/** The hash is the keys' hash tag, so the scripts' keys share one slot on a Redis Cluster. */
export function budgetKeyBase(token: string, keyPrefix = 'partner-budget'): string {
  const id = createHash('sha256').update(token).digest('hex').slice(0, 16);
  return `${keyPrefix}:{${id}}`;
}

export class PartnerBudget implements RequestGate {
  private readonly redis: BudgetRedis;
  private readonly keys;
  private readonly windowMs: number;
  private readonly reserve: number;

  constructor(
    redis: Redis,
    private readonly options: PartnerBudgetOptions,
  ) {
    if (!('partnerBudgetTake' in redis)) {
      for (const [name, command] of Object.entries(COMMANDS)) redis.defineCommand(name, command);
    }
    this.redis = redis as BudgetRedis;
    const base = budgetKeyBase(options.token, options.keyPrefix);
    // In the order TAKE_SCRIPT reads them.
    this.keys = {
      log: `${base}:log`,
      syncLog: `${base}:log-sync`,
      blocked: `${base}:blocked`,
      waitingCreate: `${base}:waiting-create`,
      waitingSync: `${base}:waiting-sync`,
      stats: `${base}:stats`,
    };
    const margin =
      options.safetyMarginMs ?? Math.min(1_000, Math.max(100, Math.ceil(options.windowMs * 0.02)));
    this.windowMs = options.windowMs + margin;
    this.reserve = Math.floor(options.limit * (options.syncReserve ?? 0));
  }

  async take(priority: RequestPriority): Promise<GateDecision> {
    const slot = randomUUID();
    const waitMs = await this.redis.partnerBudgetTake(
      ...Object.values(this.keys),
      this.windowMs,
      this.options.limit,
      this.reserve,
      priority,
      slot,
      // Outlives the wait: BullMQ can take about a second to hand a deferred job back.
      Math.max(1_000, Math.ceil(this.windowMs / 10)),
      this.options.clock?.() ?? '',
    );
    return waitMs === 0 ? { granted: true, slot } : { granted: false, waitMs };
  }

  async confirm(slot: string): Promise<ConfirmOutcome> {
    const outcome = await this.redis.partnerBudgetConfirm(
      this.keys.log,
      this.keys.syncLog,
      this.keys.blocked,
      slot,
      this.options.clock?.() ?? '',
      this.windowMs,
    );
    return outcome === 1 ? 'moved' : outcome === -1 ? 'blocked' : 'gone';
  }

  async release(slot: string): Promise<void> {
    await this.redis.partnerBudgetRelease(this.keys.log, this.keys.syncLog, this.keys.stats, slot);
  }

  async block(waitMs: number): Promise<void> {
    // Retry-After: 0 still counts as a 429; BLOCK_SCRIPT raises it to 1, as Redis refuses PX 0.
    await this.redis.partnerBudgetBlock(this.keys.blocked, this.keys.stats, Math.ceil(waitMs));
  }

  async blockedForMs(): Promise<number> {
    return Math.max(0, await this.redis.pttl(this.keys.blocked));
  }

  async stats() {
    const [raw, inWindow] = await Promise.all([
      this.redis.hgetall(this.keys.stats),
      this.redis.zcount(this.keys.log, Date.now() - this.windowMs, '+inf'),
    ]);
    const n = (key: string) => Number(raw[key] ?? 0);
    return {
      sent: n('sent'),
      rateLimited: n('rateLimited'),
      denied: n('denied'),
      waitMs: n('waitMs'),
      remaining: Math.max(0, this.options.limit - inWindow),
    };
  }
}
