import type { Redis } from 'ioredis';
import { deleteIfHeld, scanKeys } from '../queue/redis.js';
import { encodeEntry, pushEntryLua, TIMELINE_KEEP_MS, timelineKey } from './order-timeline.js';

/** The provider's side of a shipment as last read. Unknown statuses are kept as sent. */
export interface ProviderSide {
  orderNumber: string;
  status: string;
  updatedAt: string;
  updatedAtMs: number;
  stage: string;
  /** No later than the creation at the provider. */
  createdAtMs: number;
  carrier?: string;
  trackingNumber?: string;
  trackingReadAt?: string;
  deliveredAt?: string;
  /** Stage at first listing: past handover, it is fulfilled without emailing the customer. */
  adoptedAtStage?: string;
}

/** What Shopify has been given, so nothing is written twice. */
export interface ShopifySide {
  writtenStatus?: string;
  progressReportedAt?: string;
  /** Comma-separated. */
  fulfilledNumber?: string;
  fulfillmentIds?: string;
  /** A fulfilment sent without reading first: a later attempt, not knowing its outcome, reads. */
  fulfilStartedAt?: string;
  /** Nothing of the order was left to fulfil for this number: cancelled after registration, say. */
  unfulfillableNumber?: string;
  deliveryRecordedAt?: string;
  cancelFlaggedAt?: string;
  fulfilBlockedReason?: string;
}

/** What the status sync knows of each shipment, keyed by the Shopify order id. No personal data. */
export interface TrackedShipment extends ProviderSide, ShopifySide {
  reference: string;
  detailFailures?: number;
}

export function fulfilledInShopify(shipment: TrackedShipment): boolean {
  return Boolean(
    shipment.trackingNumber &&
      shipment.fulfilledNumber === shipment.trackingNumber &&
      shipment.fulfillmentIds,
  );
}

const NUMBER_FIELDS = new Set(['updatedAtMs', 'createdAtMs', 'detailFailures']);

const DAY_MS = 24 * 3600_000;

function syncKeys(prefix: string) {
  const sync = `${prefix}:sync`;
  return {
    /** Scored by creation time. */
    open: `${sync}:open`,
    detail: `${sync}:needs-detail`,
    /** Listed references that are not orders of this store, scored by when last seen. */
    foreign: `${sync}:foreign`,
    cursor: `${sync}:cursor`,
    lastCycle: `${sync}:last-cycle-started`,
    lastFinished: `${sync}:last-cycle-finished`,
    lastListedUntil: `${sync}:last-cycle-listed-until`,
    lock: `${sync}:lock`,
    labels: `${sync}:status-labels`,
  };
}

/** Kept so that a run cut short resumes at its page. */
export interface SyncCursor {
  windowStart: string;
  page: number;
  /** The next cycle's window reaches back to it (without listedUntilMs). */
  startedAtMs: number;
  /** Latest updated_at listed (provider's clock): one the cycle did not list came after it. */
  listedUntilMs?: number;
  phase: 'list' | 'details';
}

export class ShipmentTracking {
  private readonly keepMs: number;
  private readonly keys: ReturnType<typeof syncKeys>;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    settings: { lookbackDays: number },
  ) {
    // Kept beyond the sync's window, so a final shipment still listed is recognised, not adopted.
    this.keepMs = 2 * settings.lookbackDays * DAY_MS;
    this.keys = syncKeys(prefix);
  }

  private key(reference: string) {
    return `${this.prefix}:shipment:${reference}`;
  }
  private writeLockKey(reference: string) {
    return `${this.key(reference)}:write-lock`;
  }

  async get(reference: string): Promise<TrackedShipment | null> {
    return toShipment(reference, await this.redis.hgetall(this.key(reference)));
  }

  async getMany(references: readonly string[]): Promise<(TrackedShipment | null)[]> {
    if (references.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const reference of references) pipeline.hgetall(this.key(reference));
    const answers = (await pipeline.exec()) ?? [];
    return answers.map(([error, raw], i) => {
      if (error) throw error;
      return toShipment(references[i]!, raw as Record<string, string>);
    });
  }

  /** A scan: for reports, not for the sync itself. */
  async *references(): AsyncGenerator<string[]> {
    const start = `${this.prefix}:shipment:`;
    for await (const keys of scanKeys(this.redis, `${start}*`)) {
      yield keys.map((key) => key.slice(start.length)).filter((ref) => !ref.includes(':'));
    }
  }

  async track(reference: string, side: ProviderSide): Promise<boolean> {
    const created = await this.redis.eval(
      TRACK,
      3,
      this.key(reference),
      this.keys.open,
      timelineKey(this.prefix, reference),
      reference,
      this.keepMs,
      String(side.createdAtMs),
      ...providerSideArgs(side),
    );
    return created === 1;
  }

  /**
   * Refused (false) unless the record still has `readUpdatedAtMs` (undefined: no record), so a
   * report decided on stale data is never written; the caller reads again.
   */
  async saveProviderSide(
    reference: string,
    readUpdatedAtMs: number | undefined,
    side: ProviderSide,
    needsDetail: boolean,
  ): Promise<boolean> {
    const saved = await this.redis.eval(
      SAVE_PROVIDER_SIDE,
      4,
      this.key(reference),
      this.keys.open,
      this.keys.detail,
      timelineKey(this.prefix, reference),
      reference,
      readUpdatedAtMs === undefined ? '' : String(readUpdatedAtMs),
      this.keepMs,
      side.stage === 'delivered' || side.stage === 'cancelled' ? '1' : '0',
      needsDetail ? '1' : '0',
      ...providerSideArgs(side),
    );
    return saved === 1;
  }

  async saveShopifySide(reference: string, side: ShopifySide): Promise<void> {
    const fields = fieldsOf(side);
    if (fields.length === 0) return;
    // A script, not MULTI: see OrderRecords.markRegistered.
    await this.redis.eval(SAVE_SHOPIFY_SIDE, 1, this.key(reference), this.keepMs, ...fields);
  }

  async oldestOpenCreatedAtMs(): Promise<number | undefined> {
    const [, score] = await this.redis.zrange(this.keys.open, 0, 0, 'WITHSCORES');
    return score === undefined ? undefined : Number(score);
  }

  async openCount(): Promise<number> {
    return this.redis.zcard(this.keys.open);
  }

  /** Shipments never finalised would otherwise hold the sync's window open for ever. */
  async dropOpenCreatedBefore(ms: number): Promise<number> {
    return this.redis.zremrangebyscore(this.keys.open, '-inf', `(${ms}`);
  }

  async needingDetail(): Promise<string[]> {
    return this.redis.smembers(this.keys.detail);
  }

  async wantsDetail(reference: string): Promise<boolean> {
    return (await this.redis.sismember(this.keys.detail, reference)) === 1;
  }

  async noteDetailFailure(reference: string): Promise<number> {
    return this.redis.hincrby(this.key(reference), 'detailFailures', 1);
  }

  async detailDone(reference: string): Promise<void> {
    await this.redis
      .multi()
      .srem(this.keys.detail, reference)
      .hdel(this.key(reference), 'detailFailures')
      .exec();
  }

  async noteForeign(references: readonly string[]): Promise<void> {
    if (references.length === 0) return;
    const now = Date.now();
    await this.redis
      .multi()
      .zadd(this.keys.foreign, ...references.flatMap((r) => [now, r]))
      .zremrangebyscore(this.keys.foreign, '-inf', `(${now - this.keepMs}`)
      .exec();
  }

  async isForeign(reference: string): Promise<boolean> {
    return (await this.redis.zscore(this.keys.foreign, reference)) !== null;
  }

  async foreignReferences(): Promise<string[]> {
    return this.redis.zrange(this.keys.foreign, 0, -1);
  }

  /** List items carry no labels; detail reads do. */
  async labels(): Promise<Record<string, string>> {
    return this.redis.hgetall(this.keys.labels);
  }

  async learnLabel(status: string, label: string): Promise<void> {
    await this.redis.hset(this.keys.labels, status, label);
  }

  async cursor(): Promise<SyncCursor | null> {
    const raw = await this.redis.hgetall(this.keys.cursor);
    if (!raw.windowStart) return null;
    return {
      windowStart: raw.windowStart,
      page: Number(raw.page),
      startedAtMs: Number(raw.startedAtMs),
      ...(raw.listedUntilMs ? { listedUntilMs: Number(raw.listedUntilMs) } : {}),
      phase: raw.phase === 'details' ? 'details' : 'list',
    };
  }

  async saveCursor(cursor: SyncCursor): Promise<void> {
    await this.redis.hset(this.keys.cursor, ...fieldsOf(cursor));
  }

  async finishCycle(cursor: Pick<SyncCursor, 'startedAtMs' | 'listedUntilMs'>): Promise<void> {
    const done = this.redis
      .multi()
      .set(this.keys.lastCycle, String(cursor.startedAtMs))
      .set(this.keys.lastFinished, String(Date.now()));
    if (cursor.listedUntilMs === undefined) done.del(this.keys.lastListedUntil);
    else done.set(this.keys.lastListedUntil, String(cursor.listedUntilMs));
    await done.del(this.keys.cursor).exec();
  }

  /** When the last cycle started (this clock), and what it listed up to (the provider's). */
  async lastCycle() {
    const { lastCycle, lastFinished, lastListedUntil } = this.keys;
    const [startedAtMs, finishedAtMs, listedUntilMs] = (
      await this.redis.mget(lastCycle, lastFinished, lastListedUntil)
    ).map((value) => (value ? Number(value) : undefined));
    return { startedAtMs, finishedAtMs, listedUntilMs };
  }

  /**
   * Runs never overlap, in any process. `takeOverFrom`: name prefix of an earlier execution of this
   * job, replaced as BullMQ reruns only a stalled one; if alive, it stops at its next page.
   */
  async holdLock(holder: string, ttlMs: number, takeOverFrom?: string): Promise<boolean> {
    return this.takeOver(this.keys.lock, holder, ttlMs, takeOverFrom);
  }

  async releaseLock(holder: string): Promise<void> {
    await deleteIfHeld(this.redis, this.keys.lock, holder);
  }

  /**
   * Two writes that must not interleave (two fulfilments of one order) take turns. `takeOverFrom`
   * as in `holdLock`; the stalled execution must check `keepWriteLock` before each write.
   */
  async holdWriteLock(reference: string, holder: string, ttlMs: number, takeOverFrom?: string) {
    return this.takeOver(this.writeLockKey(reference), holder, ttlMs, takeOverFrom);
  }

  /** False when the lock was lost: what the holder read may be stale, so it must not write. */
  async keepWriteLock(reference: string, holder: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.eval(KEEP_LOCK, 1, this.writeLockKey(reference), holder, ttlMs)) === 1;
  }

  async releaseWriteLock(reference: string, holder: string): Promise<void> {
    await deleteIfHeld(this.redis, this.writeLockKey(reference), holder);
  }

  private async takeOver(key: string, holder: string, ttlMs: number, from = holder) {
    return (await this.redis.eval(TAKE_OVER_LOCK, 1, key, holder, ttlMs, from)) === 1;
  }
}

/** The status entry (kept only when the status changed), its timeline's keepMs, the fields. */
function providerSideArgs(side: ProviderSide) {
  const entry = encodeEntry({ at: Date.now(), kind: 'provider-status', status: side.status });
  return [entry, TIMELINE_KEEP_MS, ...fieldsOf(side)];
}

function fieldsOf(side: object): string[] {
  return Object.entries(side).flatMap(([field, value]) =>
    value === undefined ? [] : [field, String(value)],
  );
}

function toShipment(reference: string, raw: Record<string, string>): TrackedShipment | null {
  if (!raw.status) return null;
  const fields = Object.entries(raw).map(([k, v]) => [k, NUMBER_FIELDS.has(k) ? Number(v) : v]);
  return { reference, ...Object.fromEntries(fields) } as TrackedShipment;
}

// KEYS: shipment, open, timeline. ARGV: reference, keepMs, createdAtMs, status entry,
// timeline keepMs, fields…
const TRACK = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 6))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
${pushEntryLua('KEYS[3]', 'ARGV[4]', 'ARGV[5]')}
return 1
`;

// KEYS: shipment. ARGV: keepMs, fields…
const SAVE_SHOPIFY_SIDE = `
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
`;

// KEYS: shipment, open, needs-detail, timeline. ARGV: reference, readUpdatedAtMs ('' = none),
// keepMs, final, needsDetail, status entry, timeline keepMs, fields…
const SAVE_PROVIDER_SIDE = `
if (redis.call('HGET', KEYS[1], 'updatedAtMs') or '') ~= ARGV[2] then return 0 end
local statusBefore = redis.call('HGET', KEYS[1], 'status')
redis.call('HSET', KEYS[1], unpack(ARGV, 8))
if redis.call('HGET', KEYS[1], 'status') ~= statusBefore then
  ${pushEntryLua('KEYS[4]', 'ARGV[6]', 'ARGV[7]')}
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if ARGV[4] == '1' then
  redis.call('ZREM', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[2], redis.call('HGET', KEYS[1], 'createdAtMs'), ARGV[1])
end
if ARGV[5] == '1' then redis.call('SADD', KEYS[3], ARGV[1]) else redis.call('SREM', KEYS[3], ARGV[1]) end
return 1
`;

const TAKE_OVER_LOCK = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] and string.sub(holder, 1, #ARGV[3]) ~= ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

const KEEP_LOCK = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;
