import type { Redis } from 'ioredis';
import type { RecordedStage } from '../domain/order-lifecycle.js';
import { parsePartnerTimestamp } from '../partner/time.js';

/**
 * What the connector knows about each order it has seen, keyed by the numeric order id (which is
 * also the shipment reference). It answers "was this order registered, skipped or refused, and
 * why?" for the intake, the workers and an admin, without asking Shopify or the provider.
 * Only ids, statuses and admin-safe reasons are stored: no personal data.
 */
/** `sending`: a create request left and its answer was not recorded (yet). */
export type OrderState = 'sending' | 'registered' | 'skipped' | 'failed';

/** `state` and the fields of RecordedStage keep the order's stage (src/domain/order-lifecycle.ts). */
export interface OrderRecord extends RecordedStage {
  orderId: string;
  state: OrderState;
  /** When this state was recorded (ISO, UTC). */
  updatedAt: string;
  orderNumber?: string;
  partnerStatus?: string;
  /** The provider's created_at, with its offset. */
  partnerCreatedAt?: string;
  registeredAt?: string;
  /** Since when the order waits for Shopify to release what it holds (ISO, UTC). */
  waitingSince?: string;
  /**
   * When the request kept (sentFingerprint, sentUnits) left, by Redis's clock (epoch ms): the
   * first one sent, which later sends leave alone like what it asked for, until a request makes
   * the shipment (201): then that request's time (lastSentAtMs).
   */
  firstSentAtMs?: string;
  /** When the latest create request left, by Redis's clock (epoch ms). */
  lastSentAtMs?: string;
  /** The provider's created_at as an instant (epoch ms), when it was legible. */
  partnerCreatedAtMs?: string;
  /**
   * Shipment fingerprint (src/domain/shipment-fingerprint.ts) of what the provider holds: the
   * request that made the shipment (201), else the first one sent since the provider last said
   * it held none (a later send answered 200 returns the shipment that first one made).
   */
  sentFingerprint?: string;
  /**
   * The units that request asked the provider to ship (src/domain/shipment-contents.ts
   * encodeSentUnits): the fulfilment fulfils no more than these.
   */
  sentUnits?: string;
  /**
   * The settings that request was made under (src/domain/shipment-fingerprint.ts
   * encodeSettings, the locations also by id): the edit check takes the order as they do, so a
   * setting changed since is not reported as an edit. For a shipment sent without them kept,
   * those of its first edit check.
   */
  sentSettings?: string;
  /** The edit after registration last reported to staff: its fingerprint, parts and time. */
  editReportedFingerprint?: string;
  /** Comma-separated fingerprint parts that differed from what was sent, e.g. "receiver,lines". */
  editReportedChanges?: string;
  editReportedAt?: string;
  /** The reported edit whose tag and note are on the Shopify order. */
  editMarkedFingerprint?: string;
}

const DAY_MS = 24 * 3600_000;

/** A skipped order is kept a month: long enough to answer "why was it not shipped?". */
const SKIPPED_RETENTION_DAYS = 30;

export interface RecordRetention {
  /** Days a record is kept after its last change (RECORD_RETENTION_DAYS). */
  retentionDays: number;
}

/**
 * Every record expires: skipped ones after 30 days, the others RECORD_RETENTION_DAYS after their
 * last change. Forgetting an order is safe: seen again, it is checked anew, and the provider's
 * reference (the order id) turns a repeated create into the existing shipment (200), while the
 * marks on the Shopify order send the worker to the provider before any skip.
 */
export class OrderRecords {
  private readonly keepMs: number;
  private readonly keepSkippedMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    retention: RecordRetention,
  ) {
    this.keepMs = retention.retentionDays * DAY_MS;
    this.keepSkippedMs = Math.min(SKIPPED_RETENTION_DAYS, retention.retentionDays) * DAY_MS;
  }

  private key(orderId: string): string {
    return `${this.prefix}:order:${orderId}`;
  }

  private get registeredIndex(): string {
    return `${this.prefix}:orders:registered`;
  }

  /** Orders waiting for Shopify to release what it holds, scored by when to read them again. */
  private get waitingIndex(): string {
    return `${this.prefix}:orders:waiting`;
  }

  /**
   * The same orders, scored by from when their wait counts (ms: its start, a schedule's date):
   * the longest waits, found at once.
   */
  private get waitingSinceIndex(): string {
    return `${this.prefix}:orders:waiting-since`;
  }

  /**
   * The order waits for Shopify to release units it holds (on hold, scheduled, not fulfillable
   * yet): reconciliation reads it again from `due` on, since a release changes nothing Shopify
   * lists orders by. The record keeps since when it waits (the first time only), which spaces
   * the looks out. `countsFrom`: from when the wait counts as long (waitCountsFrom). Entries not
   * looked at for the skipped retention period are dropped.
   */
  async markWaiting(orderId: string, due: Date, now = new Date(), countsFrom = now): Promise<void> {
    await this.redis.eval(
      MARK_WAITING,
      3,
      this.waitingIndex,
      this.key(orderId),
      this.waitingSinceIndex,
      orderId,
      due.getTime(),
      `(${now.getTime() - this.keepSkippedMs}`,
      now.toISOString(),
      countsFrom.getTime(),
    );
  }

  /** The order no longer waits (registered, skipped for another reason, failed). */
  async stopWaiting(orderId: string): Promise<void> {
    await this.redis.eval(
      STOP_WAITING,
      3,
      this.waitingIndex,
      this.key(orderId),
      this.waitingSinceIndex,
      orderId,
    );
  }

  /**
   * Orders whose wait counts from before `before`: how many, and the longest waits first, at
   * most `limit`.
   */
  async waitingSince(
    before: Date,
    limit: number,
  ): Promise<{ count: number; waits: { orderId: string; since: Date }[] }> {
    const max = `(${before.getTime()}`;
    const [count, found] = await Promise.all([
      this.redis.zcount(this.waitingSinceIndex, '-inf', max),
      this.redis.zrangebyscore(
        this.waitingSinceIndex,
        '-inf',
        max,
        'WITHSCORES',
        'LIMIT',
        0,
        limit,
      ),
    ]);
    const waits: { orderId: string; since: Date }[] = [];
    for (let i = 0; i + 1 < found.length; i += 2) {
      waits.push({ orderId: found[i]!, since: new Date(Number(found[i + 1])) });
    }
    return { count, waits };
  }

  /** From when the longest wait counts; null when no order waits. */
  async oldestWaitingSince(): Promise<Date | null> {
    const [, score] = await this.redis.zrange(this.waitingSinceIndex, 0, 0, 'WITHSCORES');
    return score === undefined ? null : new Date(Number(score));
  }

  /** Whether reconciliation will read the order again (it is in the waiting index). */
  async isWaiting(orderId: string): Promise<boolean> {
    return (await this.redis.zscore(this.waitingIndex, orderId)) !== null;
  }

  /** Waiting orders due for another look by `now`, the longest due first, at most `limit`. */
  async dueWaiting(now: Date, limit: number): Promise<string[]> {
    return this.redis.zrangebyscore(this.waitingIndex, '-inf', now.getTime(), 'LIMIT', 0, limit);
  }

  async get(orderId: string): Promise<OrderRecord | null> {
    const raw = await this.redis.hgetall(this.key(orderId));
    if (!raw.state) return null;
    return { ...raw, orderId } as unknown as OrderRecord;
  }

  async isRegistered(orderId: string): Promise<boolean> {
    return (await this.redis.hget(this.key(orderId), 'state')) === 'registered';
  }

  /**
   * Status and creation time are left out when the provider's answer did not give them legibly.
   * `made`: the request that made the shipment (a 201, so the latest sent), which replaces what
   * was kept of earlier sends, its time included.
   */
  async markRegistered(
    orderId: string,
    shipment: { orderNumber: string; status?: string; createdAt?: string },
    now = new Date(),
    made?: { fingerprint: string; units: string; settings: string },
  ): Promise<void> {
    const createdAtMs = shipment.createdAt
      ? parsePartnerTimestamp(shipment.createdAt)?.getTime()
      : undefined;
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
    // A script, not MULTI: ioredis builds every MULTI by copying each script defined on the
    // connection (BullMQ's, dozens) onto it, which cost more than the commands themselves.
    await this.redis.eval(
      MARK_REGISTERED,
      4,
      this.key(orderId),
      this.registeredIndex,
      this.waitingIndex,
      this.waitingSinceIndex,
      orderId,
      this.keepMs,
      now.getTime(),
      `(${now.getTime() - this.keepMs}`,
      made ? '1' : '',
      ...Object.entries(fields).flat(),
    );
  }

  /**
   * Records why an order is not shipped (now). A registered order is never downgraded. Skipped
   * for any reason but a wait on Shopify (`held`), the order no longer waits.
   */
  async markSkipped(orderId: string, skipCode: string, reason: string, now = new Date()) {
    if (skipCode !== 'held') await this.stopWaiting(orderId);
    await this.setUnlessRegistered(orderId, this.keepSkippedMs, {
      state: 'skipped',
      skipCode,
      reason,
      updatedAt: now.toISOString(),
    });
  }

  /** Records why registering failed, in words an admin can act on. */
  async markFailed(orderId: string, reason: string, now = new Date()) {
    await this.stopWaiting(orderId);
    await this.setUnlessRegistered(orderId, this.keepMs, {
      state: 'failed',
      reason,
      updatedAt: now.toISOString(),
    });
  }

  /**
   * Marks that a create request is about to leave, before its answer is known. A failed order
   * stays failed (with its reason) until an answer says otherwise, so retrying it does not look
   * like a new failure. `fingerprint`, `sentUnits`, `sentSettings`: those of the request about
   * to leave, kept in the same step unless an earlier send is kept: the provider, if it holds a
   * shipment, holds the first request that reached it, and answers later ones with that
   * shipment. A "no such shipment" answer (clearSent) forgets them.
   */
  async markSending(
    orderId: string,
    fingerprint?: string,
    now = new Date(),
    sentUnits = '',
    sentSettings = '',
  ): Promise<void> {
    await this.redis.eval(
      MARK_SENDING,
      1,
      this.key(orderId),
      now.toISOString(),
      this.keepMs,
      fingerprint ?? '',
      sentUnits,
      sentSettings,
    );
  }

  /**
   * Forgets the create requests sent until `sentAt` (their time, fingerprint, units and
   * settings), once the provider said it holds no shipment for the order: later sightings of an
   * order that will not ship then cost no look-up. A request sent since (a newer `sentAt`) is
   * kept.
   */
  async clearSent(orderId: string, sentAt: string): Promise<void> {
    await this.redis.eval(CLEAR_SENT, 1, this.key(orderId), sentAt);
  }

  /** Asks the running job of this order to look at it once more when its current look ends. */
  async requestRerun(orderId: string): Promise<void> {
    await this.redis.set(`${this.key(orderId)}:rerun`, '1', 'EX', 3600);
  }

  /** Whether another look was asked for; the request is used up. */
  async takeRerun(orderId: string): Promise<boolean> {
    return (await this.redis.getdel(`${this.key(orderId)}:rerun`)) !== null;
  }

  /** Returns true only the first time, so the case is reported once per order. */
  async flagCancelledAfterRegistration(orderId: string, now = new Date()): Promise<boolean> {
    const set = await this.redis.hsetnx(
      this.key(orderId),
      'cancelledAfterRegistrationAt',
      now.toISOString(),
    );
    if (set !== 1) return false;
    // Kept for the retention period from the cancellation, like any change.
    await this.redis.pexpire(this.key(orderId), this.keepMs);
    return true;
  }

  // --- Shipment fingerprints: what was sent, what failed, which edit staff were told of ---

  /**
   * For a registered order with no fingerprint (registered before they were kept, or found at
   * the provider after a lost answer): this one, and the settings it was taken under unless
   * some are kept already.
   */
  async adoptSentFingerprint(
    orderId: string,
    fingerprint: string,
    settings: string,
  ): Promise<boolean> {
    return (
      (await this.redis.eval(
        ADOPT_SENT_FINGERPRINT,
        1,
        this.key(orderId),
        fingerprint,
        settings,
      )) === 1
    );
  }

  /**
   * Replaces a sent fingerprint computed an older way (`before`) by the order as it is now, and
   * keeps the settings it was taken under unless some are kept already; not if another write
   * changed the fingerprint meanwhile.
   */
  async rebaseSentFingerprint(
    orderId: string,
    before: string,
    now: string,
    settings: string,
  ): Promise<boolean> {
    return (
      (await this.redis.eval(
        REBASE_SENT_FINGERPRINT,
        1,
        this.key(orderId),
        before,
        now,
        settings,
      )) === 1
    );
  }

  /**
   * For a shipment sent before its settings were kept with it: these, taken as its own. Never
   * replaces settings kept before.
   */
  async keepSentSettings(orderId: string, settings: string): Promise<boolean> {
    return (await this.redis.eval(KEEP_SENT_SETTINGS, 1, this.key(orderId), settings)) === 1;
  }

  /** The fingerprint the order failed with; none (unknown) removes an older one. */
  async recordFailedFingerprint(orderId: string, fingerprint: string | undefined): Promise<void> {
    await this.redis.eval(
      SET_FAILED_FINGERPRINT,
      1,
      this.key(orderId),
      ...(fingerprint ? [fingerprint] : []),
    );
  }

  /**
   * Records an edit of a registered order for staff. True only the first time this fingerprint
   * is reported, so one change is reported once however often the order is seen again.
   */
  async reportEdit(
    orderId: string,
    fingerprint: string,
    changes: readonly string[],
    now = new Date(),
  ): Promise<boolean> {
    const reported = await this.redis.eval(
      REPORT_EDIT,
      1,
      this.key(orderId),
      fingerprint,
      changes.join(','),
      now.toISOString(),
    );
    return reported === 1;
  }

  /** The tag and note of the reported edit with this fingerprint are on the order. */
  async recordEditMarked(orderId: string, fingerprint: string): Promise<void> {
    await this.redis.hset(this.key(orderId), 'editMarkedFingerprint', fingerprint);
  }

  /**
   * Notes that the order's next create run comes from an order event (webhook, reconciliation,
   * backfill) rather than from staff: such a run does not resend an order refused as it stands.
   */
  async noteEventRun(orderId: string): Promise<void> {
    await this.redis.set(`${this.key(orderId)}:event-run`, '1', 'EX', 7 * 24 * 3600);
  }

  /** Whether the run about to start was asked for by an order event; the note is used up. */
  async takeEventRun(orderId: string): Promise<boolean> {
    return (await this.redis.getdel(`${this.key(orderId)}:event-run`)) !== null;
  }

  // --- end of shipment fingerprints ---

  /**
   * Order ids registered since `since`, oldest first; the index holds the retention period only.
   * Kept for the coming status sync (which registered orders may still move) and for admins.
   */
  async registeredSince(since: Date): Promise<string[]> {
    return this.redis.zrangebyscore(this.registeredIndex, since.getTime(), '+inf');
  }

  private async setUnlessRegistered(
    orderId: string,
    keepMs: number,
    fields: Record<string, string>,
  ) {
    // One script, so a registration landing at the same moment is never overwritten.
    await this.redis.eval(
      SET_UNLESS_REGISTERED,
      1,
      this.key(orderId),
      keepMs,
      ...Object.entries(fields).flat(),
    );
  }
}

// KEYS: record, registered index, waiting index, waiting-since index. ARGV: orderId, keepMs,
// nowMs, oldest score dropped, made ('1' when this request made the shipment), fields… The index
// keeps the registrations of the retention period, like the records.
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
return 1
`;

// KEYS: waiting index, record, waiting-since index. ARGV: orderId, due (ms), oldest score kept,
// now (ISO), counts from (ms). Both indexes hold the same orders: one dropped from the first (not looked
// at for the retention period) leaves the second too.
const MARK_WAITING = `
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[1])
local stale = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[3], 'LIMIT', 0, 1000)
if #stale > 0 then
  redis.call('ZREM', KEYS[1], unpack(stale))
  redis.call('ZREM', KEYS[3], unpack(stale))
end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('HSETNX', KEYS[2], 'waitingSince', ARGV[4]) end
return 1
`;

// KEYS: waiting index, record, waiting-since index. ARGV: orderId.
const STOP_WAITING = `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[2], 'waitingSince')
return 1
`;

const MARK_SENDING = `
if ARGV[3] ~= '' and redis.call('HEXISTS', KEYS[1], 'sentFingerprint') == 0 then
  redis.call('HSET', KEYS[1], 'sentFingerprint', ARGV[3], 'sentUnits', ARGV[4], 'sentSettings',
    ARGV[5])
end
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'registered' then return 0 end
if state ~= 'failed' then redis.call('HSET', KEYS[1], 'state', 'sending', 'updatedAt', ARGV[1]) end
local now = redis.call('TIME')
local nowMs = string.format('%.0f', tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000))
redis.call('HSET', KEYS[1], 'sentAt', ARGV[1], 'lastSentAtMs', nowMs)
if redis.call('HEXISTS', KEYS[1], 'firstSentAtMs') == 0 then
  redis.call('HSET', KEYS[1], 'firstSentAtMs', nowMs)
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

const CLEAR_SENT = `
if redis.call('HGET', KEYS[1], 'sentAt') == ARGV[1] then
  redis.call('HDEL', KEYS[1], 'sentAt', 'firstSentAtMs', 'lastSentAtMs', 'sentFingerprint',
    'sentUnits', 'sentSettings')
end
return 1
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
if redis.call('HGET', KEYS[1], 'state') == 'registered' then return 0 end
if ARGV[1] then redis.call('HSET', KEYS[1], 'failedFingerprint', ARGV[1])
else redis.call('HDEL', KEYS[1], 'failedFingerprint') end
return 1
`;

const REPORT_EDIT = `
if redis.call('HGET', KEYS[1], 'state') ~= 'registered' then return 0 end
if redis.call('HGET', KEYS[1], 'editReportedFingerprint') == ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'editReportedFingerprint', ARGV[1], 'editReportedChanges', ARGV[2],
  'editReportedAt', ARGV[3])
return 1
`;

const SET_UNLESS_REGISTERED = `
if redis.call('HGET', KEYS[1], 'state') == 'registered' then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`;
