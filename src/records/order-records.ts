import type { Redis } from 'ioredis';
import type { RecordedStage } from '../domain/order-lifecycle.js';
import { parsePartnerTimestamp } from '../partner/time.js';

/** Keyed by numeric order id (the shipment reference). Ids, statuses, admin-safe reasons only. */
export interface OrderRecord extends RecordedStage {
  orderId: string;
  /** `sending`: a create request left and its answer was not recorded (yet). */
  state: 'sending' | 'registered' | 'skipped' | 'failed';
  /** When this state was recorded (ISO, UTC). */
  updatedAt: string;
  orderNumber?: string;
  partnerStatus?: string;
  /** The provider's created_at, with its offset. */
  partnerCreatedAt?: string;
  registeredAt?: string;
  /** ISO, UTC. */
  waitingSince?: string;
  /**
   * When the kept request (sentFingerprint, sentUnits) left, Redis clock, epoch ms: the first sent,
   * untouched by later sends until a 201 sets it to that request's lastSentAtMs.
   */
  firstSentAtMs?: string;
  /** Redis clock, epoch ms. */
  lastSentAtMs?: string;
  /** Epoch ms, when legible. */
  partnerCreatedAtMs?: string;
  /**
   * What the provider holds: the request that made the shipment (201), else the first sent since
   * the provider last said it held none (a later send's 200 returns what that first one made).
   */
  sentFingerprint?: string;
  /** That request's units (encodeSentUnits): the fulfilment fulfils no more. */
  sentUnits?: string;
  /**
   * That request's settings (encodeSettings), so a setting changed since is not an edit. Sent
   * without them kept: those of its first edit check.
   */
  sentSettings?: string;
  /** The edit last reported to staff: its fingerprint, parts and time. */
  editReportedFingerprint?: string;
  /** Parts that differed from what was sent, e.g. "receiver,lines". */
  editReportedChanges?: string;
  editReportedAt?: string;
  /** The reported edit whose tag and note are on the Shopify order. */
  editMarkedFingerprint?: string;
}

const DAY_MS = 24 * 3600_000;

/** A skipped order is kept a month: long enough to answer "why was it not shipped?". */
const SKIPPED_RETENTION_DAYS = 30;

/**
 * Every record expires. Forgetting is safe: seen again, the order is checked anew, a repeated
 * create returns the existing shipment (200, same reference), and the marks on the Shopify order
 * send the worker to the provider before any skip.
 */
export class OrderRecords {
  private readonly keepMs: number;
  private readonly keepSkippedMs: number;
  private readonly registeredIndex: string;
  /** Orders waiting for Shopify to release what it holds, scored by when to read them again. */
  private readonly waitingIndex: string;
  /** The same orders, scored by when their wait counts from (ms), to find the longest at once. */
  private readonly waitingSinceIndex: string;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** Days a record is kept after its last change (RECORD_RETENTION_DAYS). */
    retention: { retentionDays: number },
  ) {
    this.keepMs = retention.retentionDays * DAY_MS;
    this.keepSkippedMs = Math.min(SKIPPED_RETENTION_DAYS, retention.retentionDays) * DAY_MS;
    this.registeredIndex = `${prefix}:orders:registered`;
    this.waitingIndex = `${prefix}:orders:waiting`;
    this.waitingSinceIndex = `${prefix}:orders:waiting-since`;
  }

  /** For commands that only read: retention matters only to writes. */
  static reader(redis: Redis, prefix: string): Pick<OrderRecords, 'get'> {
    return new OrderRecords(redis, prefix, { retentionDays: 1 });
  }

  private key(orderId: string): string {
    return `${this.prefix}:order:${orderId}`;
  }

  /**
   * Read again from `due`: a release changes nothing Shopify lists orders by. waitingSince, set
   * once, spaces the looks. Entries not looked at for the skipped retention period are dropped.
   */
  async markWaiting(orderId: string, due: Date, now = new Date(), countsFrom = now): Promise<void> {
    const stale = `(${now.getTime() - this.keepSkippedMs}`;
    const args = [due.getTime(), stale, now.toISOString(), countsFrom.getTime()];
    await this.onWaiting(MARK_WAITING, orderId, ...args);
  }

  async stopWaiting(orderId: string): Promise<void> {
    await this.onWaiting(STOP_WAITING, orderId);
  }

  private onWaiting(script: string, orderId: string, ...args: (string | number)[]) {
    const keys = [this.waitingIndex, this.key(orderId), this.waitingSinceIndex];
    return this.redis.eval(script, 3, ...keys, orderId, ...args);
  }

  /** Waits counting from before `before`: how many, and up to `limit` longest first. */
  async waitingSince(before: Date, limit: number) {
    const range = [this.waitingSinceIndex, '-inf', `(${before.getTime()}`] as const;
    const [count, found] = await Promise.all([
      this.redis.zcount(...range),
      this.redis.zrangebyscore(...range, 'WITHSCORES', 'LIMIT', 0, limit),
    ]);
    const waits = Array.from({ length: found.length >> 1 }, (_, i) => ({
      orderId: found[2 * i]!,
      since: new Date(Number(found[2 * i + 1])),
    }));
    return { count, waits };
  }

  async oldestWaitingSince(): Promise<Date | null> {
    const [, score] = await this.redis.zrange(this.waitingSinceIndex, 0, 0, 'WITHSCORES');
    return score === undefined ? null : new Date(Number(score));
  }

  async isWaiting(orderId: string): Promise<boolean> {
    return (await this.redis.zscore(this.waitingIndex, orderId)) !== null;
  }

  async dueWaiting(now: Date, limit: number): Promise<string[]> {
    return this.redis.zrangebyscore(this.waitingIndex, '-inf', now.getTime(), 'LIMIT', 0, limit);
  }

  async get(orderId: string): Promise<OrderRecord | null> {
    return recordOf(orderId, await this.redis.hgetall(this.key(orderId)));
  }

  /**
   * A create run begins, in one round trip: whether an order event asked for it, and the record.
   * An event that asked to look again before now is answered by this run's first look.
   */
  async startRun(orderId: string): Promise<{ fromEvent: boolean; record: OrderRecord | null }> {
    const key = this.key(orderId);
    const replies = await this.redis
      .multi()
      .getdel(`${key}:event-run`)
      .getdel(`${key}:rerun`)
      .hgetall(key)
      .exec();
    const [eventRun, , raw] = replies!.map(([error, reply]) => {
      if (error) throw error;
      return reply;
    });
    return {
      fromEvent: eventRun !== null,
      record: recordOf(orderId, raw as Record<string, string>),
    };
  }

  async isRegistered(orderId: string): Promise<boolean> {
    return (await this.redis.hget(this.key(orderId), 'state')) === 'registered';
  }

  /**
   * Status and creation time are left out when not legible. `made`: the request that made the
   * shipment (201, so the latest sent), replacing what was kept of earlier sends, time included.
   */
  async markRegistered(
    orderId: string,
    shipment: { orderNumber: string; status?: string; createdAt?: string },
    now = new Date(),
    made?: { fingerprint: string; units: string; settings: string },
  ): Promise<void> {
    const createdAtMs = parsePartnerTimestamp(shipment.createdAt ?? '')?.getTime();
    const fields = {
      state: 'registered',
      updatedAt: now.toISOString(),
      registeredAt: now.toISOString(),
      orderNumber: shipment.orderNumber,
      ...(shipment.status ? { partnerStatus: shipment.status } : {}),
      ...(shipment.createdAt ? { partnerCreatedAt: shipment.createdAt } : {}),
      ...(createdAtMs !== undefined ? { partnerCreatedAtMs: String(createdAtMs) } : {}),
      ...(made
        ? { sentFingerprint: made.fingerprint, sentUnits: made.units, sentSettings: made.settings }
        : {}),
    };
    // A script, not MULTI: ioredis copies every script defined on the connection (BullMQ's,
    // dozens) onto each MULTI it builds.
    const keys = [
      this.key(orderId),
      this.registeredIndex,
      this.waitingIndex,
      this.waitingSinceIndex,
    ];
    const oldest = `(${now.getTime() - this.keepMs}`;
    const args = [orderId, this.keepMs, now.getTime(), oldest, made ? '1' : ''];
    await this.redis.eval(MARK_REGISTERED, 4, ...keys, ...args, ...Object.entries(fields).flat());
  }

  /** A registered order is never downgraded. Skipped for anything but `held`, it stops waiting. */
  async markSkipped(orderId: string, skipCode: string, reason: string, now = new Date()) {
    if (skipCode !== 'held') await this.stopWaiting(orderId);
    await this.setUnlessRegistered(orderId, this.keepSkippedMs, now, {
      state: 'skipped',
      skipCode,
      reason,
    });
  }

  async markFailed(orderId: string, reason: string, now = new Date()) {
    await this.stopWaiting(orderId);
    await this.setUnlessRegistered(orderId, this.keepMs, now, { state: 'failed', reason });
  }

  /**
   * A failed order stays failed until an answer, so a retry is not a new failure. The request's
   * fingerprint, units and settings are kept unless an earlier send's are: the provider holds the
   * first request that reached it and answers later ones with that shipment.
   */
  async markSending(
    orderId: string,
    fingerprint?: string,
    now = new Date(),
    sentUnits = '',
    sentSettings = '',
  ): Promise<void> {
    await this.onRecord(
      MARK_SENDING,
      orderId,
      now.toISOString(),
      this.keepMs,
      fingerprint ?? '',
      sentUnits,
      sentSettings,
    );
  }

  /**
   * Once the provider holds no shipment for the order, forgets the sends up to `sentAt`, so later
   * sightings cost no look-up. A newer send is kept.
   */
  async clearSent(orderId: string, sentAt: string): Promise<void> {
    await this.onRecord(CLEAR_SENT, orderId, sentAt);
  }

  /** Asks the order's running job to look once more when its current look ends. */
  async requestRerun(orderId: string): Promise<void> {
    await this.redis.set(`${this.key(orderId)}:rerun`, '1', 'EX', 3600);
  }

  async takeRerun(orderId: string): Promise<boolean> {
    return (await this.redis.getdel(`${this.key(orderId)}:rerun`)) !== null;
  }

  /** True only the first time, so the case is reported once per order. */
  async flagCancelledAfterRegistration(orderId: string, now = new Date()): Promise<boolean> {
    const key = this.key(orderId);
    const set = await this.redis.hsetnx(key, 'cancelledAfterRegistrationAt', now.toISOString());
    if (set !== 1) return false;
    // Kept for the retention period from the cancellation, like any change.
    await this.redis.pexpire(key, this.keepMs);
    return true;
  }

  /** For a registered order with none (old record, lost answer): this, and settings unless kept. */
  async adoptSentFingerprint(orderId: string, fingerprint: string, settings: string) {
    return this.onRecord(ADOPT_SENT_FINGERPRINT, orderId, fingerprint, settings);
  }

  /** Replaces an older-version sent fingerprint unless changed meanwhile; settings unless kept. */
  async rebaseSentFingerprint(orderId: string, before: string, now: string, settings: string) {
    return this.onRecord(REBASE_SENT_FINGERPRINT, orderId, before, now, settings);
  }

  /** For a shipment sent without settings kept: these. Never replaces kept ones. */
  async keepSentSettings(orderId: string, settings: string): Promise<boolean> {
    return this.onRecord(KEEP_SENT_SETTINGS, orderId, settings);
  }

  /** The fingerprint the order failed with; none (unknown) removes an older one. */
  async recordFailedFingerprint(orderId: string, fingerprint: string | undefined): Promise<void> {
    await this.onRecord(SET_FAILED_FINGERPRINT, orderId, ...(fingerprint ? [fingerprint] : []));
  }

  /** True only the first time this fingerprint is reported, so one change is reported once. */
  async reportEdit(
    orderId: string,
    fingerprint: string,
    changes: readonly string[],
    now = new Date(),
  ): Promise<boolean> {
    return this.onRecord(REPORT_EDIT, orderId, fingerprint, changes.join(','), now.toISOString());
  }

  async recordEditMarked(orderId: string, fingerprint: string): Promise<void> {
    await this.redis.hset(this.key(orderId), 'editMarkedFingerprint', fingerprint);
  }

  /** The next create run is from an order event, not staff: no resend of an unchanged refusal. */
  async noteEventRun(orderId: string): Promise<void> {
    await this.redis.set(`${this.key(orderId)}:event-run`, '1', 'EX', 7 * 24 * 3600);
  }

  async takeEventRun(orderId: string): Promise<boolean> {
    return (await this.redis.getdel(`${this.key(orderId)}:event-run`)) !== null;
  }

  /** Oldest first; the index holds the retention period only. */
  async registeredSince(since: Date): Promise<string[]> {
    return this.redis.zrangebyscore(this.registeredIndex, since.getTime(), '+inf');
  }

  /** One script, so a registration landing at the same moment is never overwritten. */
  private async setUnlessRegistered(
    orderId: string,
    keepMs: number,
    now: Date,
    fields: Record<string, string>,
  ) {
    const args = Object.entries({ ...fields, updatedAt: now.toISOString() }).flat();
    await this.onRecord(SET_UNLESS_REGISTERED, orderId, keepMs, ...args);
  }

  private async onRecord(script: string, orderId: string, ...args: (string | number)[]) {
    return (await this.redis.eval(script, 1, this.key(orderId), ...args)) === 1;
  }
}

// KEYS: record, registered index, waiting index, waiting-since index. ARGV: orderId, keepMs,
// nowMs, oldest score dropped, made ('1' when this request made the shipment), fields…
const MARK_REGISTERED = `
redis.call('HDEL', KEYS[1], 'skipCode', 'reason', 'waitingSince')
redis.call('HSET', KEYS[1], unpack(ARGV, 6))
local last = redis.call('HGET', KEYS[1], 'lastSentAtMs')
if ARGV[5] == '1' and last then redis.call('HSET', KEYS[1], 'firstSentAtMs', last) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[4])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
`;

// KEYS: waiting index, record, waiting-since index. ARGV: orderId, due (ms), oldest score kept,
// now (ISO), counts from (ms). An order dropped as stale from the first index leaves both.
const MARK_WAITING = `
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[1])
local stale = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[3], 'LIMIT', 0, 1000)
if #stale > 0 then
  redis.call('ZREM', KEYS[1], unpack(stale))
  redis.call('ZREM', KEYS[3], unpack(stale))
end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('HSETNX', KEYS[2], 'waitingSince', ARGV[4]) end
`;

// KEYS: waiting index, record, waiting-since index. ARGV: orderId.
const STOP_WAITING = `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[2], 'waitingSince')
`;

const MARK_SENDING = `
if ARGV[3] ~= '' and redis.call('HEXISTS', KEYS[1], 'sentFingerprint') == 0 then
  redis.call('HSET', KEYS[1], 'sentFingerprint', ARGV[3], 'sentUnits', ARGV[4], 'sentSettings',
    ARGV[5])
end
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'registered' then return end
if state ~= 'failed' then redis.call('HSET', KEYS[1], 'state', 'sending', 'updatedAt', ARGV[1]) end
local now = redis.call('TIME')
local nowMs = string.format('%.0f', tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000))
redis.call('HSET', KEYS[1], 'sentAt', ARGV[1], 'lastSentAtMs', nowMs)
if redis.call('HEXISTS', KEYS[1], 'firstSentAtMs') == 0 then
  redis.call('HSET', KEYS[1], 'firstSentAtMs', nowMs)
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
`;

const CLEAR_SENT = `
if redis.call('HGET', KEYS[1], 'sentAt') == ARGV[1] then
  redis.call('HDEL', KEYS[1], 'sentAt', 'firstSentAtMs', 'lastSentAtMs', 'sentFingerprint',
    'sentUnits', 'sentSettings')
end
`;

// Only on a record that exists: a field written to one that expired meanwhile would never expire.
const ADOPT_SENT_FINGERPRINT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSETNX', KEYS[1], 'sentSettings', ARGV[2])
return redis.call('HSETNX', KEYS[1], 'sentFingerprint', ARGV[1])
`;

const REBASE_SENT_FINGERPRINT = `
if redis.call('HGET', KEYS[1], 'sentFingerprint') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'sentFingerprint', ARGV[2])
redis.call('HSETNX', KEYS[1], 'sentSettings', ARGV[3])
return 1
`;

const KEEP_SENT_SETTINGS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('HSETNX', KEYS[1], 'sentSettings', ARGV[1])
`;

const SET_FAILED_FINGERPRINT = `
if redis.call('HGET', KEYS[1], 'state') == 'registered' then return end
if ARGV[1] then redis.call('HSET', KEYS[1], 'failedFingerprint', ARGV[1])
else redis.call('HDEL', KEYS[1], 'failedFingerprint') end
`;

const REPORT_EDIT = `
if redis.call('HGET', KEYS[1], 'state') ~= 'registered' then return 0 end
if redis.call('HGET', KEYS[1], 'editReportedFingerprint') == ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'editReportedFingerprint', ARGV[1], 'editReportedChanges', ARGV[2],
  'editReportedAt', ARGV[3])
return 1
`;

const SET_UNLESS_REGISTERED = `
if redis.call('HGET', KEYS[1], 'state') == 'registered' then return end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
`;

function recordOf(orderId: string, raw: Record<string, string>): OrderRecord | null {
  return raw.state ? ({ ...raw, orderId } as unknown as OrderRecord) : null;
}
