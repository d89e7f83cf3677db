import type { Redis } from 'ioredis';
import { scanKeys } from '../queue/redis.js';
import { encodeEntry, pushEntryLua, TIMELINE_KEEP_MS, timelineKey } from './order-timeline.js';

/**
 * What the status sync knows of each shipment, keyed by its reference (the Shopify order id):
 * the provider's side (status, tracking, as last read) and the Shopify side (what has been
 * written back). The sync and the write jobs compare the two to decide what Shopify still needs,
 * so nothing is written twice. Only ids, statuses and tracking are stored: no personal data.
 */
export interface TrackedShipment {
  reference: string;
  orderNumber: string;
  /** The provider's status as last read; an unknown one is kept as sent. */
  status: string;
  /** The provider's updated_at of that status, as sent, and as an instant. */
  updatedAt: string;
  updatedAtMs: number;
  /** The furthest documented stage reached (pending … delivered, or cancelled). */
  stage: string;
  /** When the shipment was created at the provider (or a time no later than that). */
  createdAtMs: number;
  carrier?: string;
  trackingNumber?: string;
  /** The updated_at of the detail read that gave carrier and tracking number. */
  trackingReadAt?: string;
  /** When the provider says it was delivered (history, or updated_at). */
  deliveredAt?: string;
  /**
   * Set for a shipment first seen in the provider's list (not registered by this connector):
   * the stage it had then. One already with the carrier is fulfilled without emailing the
   * customer, who heard of it long ago.
   */
  adoptedAtStage?: string;
  /** Failed detail reads since the last good one. */
  detailFailures?: number;

  // What Shopify has been given:
  /** The status version (jobs/shipment-updates) written into the order's metafields. */
  writtenStatus?: string;
  progressReportedAt?: string;
  /** The tracking number on the order's fulfillments, and their ids (comma-separated). */
  fulfilledNumber?: string;
  fulfillmentIds?: string;
  /**
   * When a fulfilment was first sent unread (the units as sent): a later attempt, not knowing
   * what that one did, reads the order first.
   */
  fulfilStartedAt?: string;
  /**
   * The tracking number for which nothing of the order was left to fulfil (its fulfillment
   * orders closed or cancelled in Shopify, an order cancelled after registration say): no
   * fulfillment carries it, and the sync asks none for it.
   */
  unfulfillableNumber?: string;
  deliveryRecordedAt?: string;
  cancelFlaggedAt?: string;
  /** Why the order could not be fulfilled, as last told to staff (holds, other apps…). */
  fulfilBlockedReason?: string;
}

/** The provider's side of a shipment as the sync writes it. */
export type ProviderSide = Pick<
  TrackedShipment,
  'orderNumber' | 'status' | 'updatedAt' | 'updatedAtMs' | 'stage' | 'createdAtMs'
> &
  Partial<
    Pick<
      TrackedShipment,
      'carrier' | 'trackingNumber' | 'trackingReadAt' | 'deliveredAt' | 'adoptedAtStage'
    >
  >;

/** What the write jobs record once Shopify has it. */
export type ShopifySide = Partial<
  Pick<
    TrackedShipment,
    | 'writtenStatus'
    | 'progressReportedAt'
    | 'fulfilledNumber'
    | 'fulfillmentIds'
    | 'fulfilStartedAt'
    | 'unfulfillableNumber'
    | 'deliveryRecordedAt'
    | 'cancelFlaggedAt'
    | 'fulfilBlockedReason'
  >
>;

/** Whether a fulfillment in Shopify carries the shipment's tracking number (as last recorded). */
export function fulfilledInShopify(shipment: TrackedShipment): boolean {
  return Boolean(
    shipment.trackingNumber &&
      shipment.fulfilledNumber === shipment.trackingNumber &&
      shipment.fulfillmentIds,
  );
}

const NUMBER_FIELDS = new Set(['updatedAtMs', 'createdAtMs', 'detailFailures']);

const DAY_MS = 24 * 3600_000;

/** Where a cycle of the sync stands: kept so that a run cut short resumes at its page. */
export interface SyncCursor {
  /** The created_after of the cycle (ISO). */
  windowStart: string;
  /** The next page to read. */
  page: number;
  /** When the cycle began (epoch ms): the next cycle's window reaches back to it. */
  startedAtMs: number;
  /** Reading the list's pages, or (every page read) the detail reads. */
  phase: 'list' | 'details';
}

export class ShipmentTracking {
  private readonly keepMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    settings: { lookbackDays: number },
  ) {
    // Kept beyond the sync's window, so a final shipment still listed is recognised, not adopted.
    this.keepMs = 2 * settings.lookbackDays * DAY_MS;
  }

  private key(reference: string) {
    return `${this.prefix}:shipment:${reference}`;
  }
  /** Shipments not yet delivered or cancelled, scored by creation time. */
  private get openKey() {
    return `${this.prefix}:sync:open`;
  }
  /** Shipments whose carrier or tracking number the sync must read in detail. */
  private get detailKey() {
    return `${this.prefix}:sync:needs-detail`;
  }
  /** Listed references that are not orders of this store, scored by when last seen. */
  private get foreignKey() {
    return `${this.prefix}:sync:foreign`;
  }
  private get cursorKey() {
    return `${this.prefix}:sync:cursor`;
  }
  private get lastCycleKey() {
    return `${this.prefix}:sync:last-cycle-started`;
  }
  private get lockKey() {
    return `${this.prefix}:sync:lock`;
  }
  private writeLockKey(reference: string) {
    return `${this.key(reference)}:write-lock`;
  }
  private get labelsKey() {
    return `${this.prefix}:sync:status-labels`;
  }

  async get(reference: string): Promise<TrackedShipment | null> {
    const raw = await this.redis.hgetall(this.key(reference));
    return raw.status ? toShipment(reference, raw) : null;
  }

  /** Several at once (one round trip); null where none is kept. */
  async getMany(references: readonly string[]): Promise<(TrackedShipment | null)[]> {
    if (references.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const reference of references) pipeline.hgetall(this.key(reference));
    const answers = (await pipeline.exec()) ?? [];
    return answers.map(([error, raw], i) => {
      if (error) throw error;
      const fields = raw as Record<string, string>;
      return fields.status ? toShipment(references[i]!, fields) : null;
    });
  }

  /** Every reference the sync keeps a record of (a scan: for reports, not for the sync itself). */
  async *references(): AsyncGenerator<string[]> {
    const start = `${this.prefix}:shipment:`;
    for await (const keys of scanKeys(this.redis, `${start}*`)) {
      yield keys.map((key) => key.slice(start.length)).filter((ref) => !ref.includes(':'));
    }
  }

  /**
   * Starts following a shipment just registered, unless the sync already follows it. Its
   * creation time puts it in the sync's window from the start.
   */
  async track(reference: string, side: ProviderSide, now = Date.now()): Promise<boolean> {
    const created = await this.redis.eval(
      TRACK,
      3,
      this.key(reference),
      this.openKey,
      timelineKey(this.prefix, reference),
      reference,
      this.keepMs,
      String(side.createdAtMs),
      statusEntry(side.status, now),
      TIMELINE_KEEP_MS,
      ...fieldsOf(side),
    );
    return created === 1;
  }

  /**
   * Writes the provider's side when it still is as it was read (`readUpdatedAtMs`, undefined for
   * a shipment not followed before): a report decided on stale data is refused (false), and the
   * caller reads again. Final shipments leave the open set; one needing detail joins that set.
   */
  async saveProviderSide(
    reference: string,
    readUpdatedAtMs: number | undefined,
    side: ProviderSide,
    needsDetail: boolean,
    now = Date.now(),
  ): Promise<boolean> {
    const saved = await this.redis.eval(
      SAVE_PROVIDER_SIDE,
      4,
      this.key(reference),
      this.openKey,
      this.detailKey,
      timelineKey(this.prefix, reference),
      reference,
      readUpdatedAtMs === undefined ? '' : String(readUpdatedAtMs),
      this.keepMs,
      side.stage === 'delivered' || side.stage === 'cancelled' ? '1' : '0',
      needsDetail ? '1' : '0',
      statusEntry(side.status, now),
      TIMELINE_KEEP_MS,
      ...fieldsOf(side),
    );
    return saved === 1;
  }

  /** Records what Shopify now has. Fields given as undefined are left alone. */
  async saveShopifySide(reference: string, side: ShopifySide): Promise<void> {
    const fields = fieldsOf(side);
    if (fields.length === 0) return;
    // A script, not MULTI: ioredis builds every MULTI by copying each script defined on the
    // connection (BullMQ's, dozens) onto it, which cost more than the commands themselves.
    await this.redis.eval(SAVE_SHOPIFY_SIDE, 1, this.key(reference), this.keepMs, ...fields);
  }

  /** Removes Shopify-side fields (a blocked reason that no longer holds, say). */
  async clearShopifySide(reference: string, ...fields: (keyof ShopifySide)[]): Promise<void> {
    if (fields.length > 0) await this.redis.hdel(this.key(reference), ...fields);
  }

  /** Creation time of the oldest shipment not yet delivered or cancelled, if any. */
  async oldestOpenCreatedAtMs(): Promise<number | undefined> {
    const [, score] = await this.redis.zrange(this.openKey, 0, 0, 'WITHSCORES');
    return score === undefined ? undefined : Number(score);
  }

  async openCount(): Promise<number> {
    return this.redis.zcard(this.openKey);
  }

  /**
   * Stops following shipments created before `ms` that never reached a final status (the
   * provider never said delivered): they would hold the sync's window open for ever.
   */
  async dropOpenCreatedBefore(ms: number): Promise<number> {
    return this.redis.zremrangebyscore(this.openKey, '-inf', `(${ms}`);
  }

  /** References whose carrier and tracking number must be read in detail. */
  async needingDetail(): Promise<string[]> {
    return this.redis.smembers(this.detailKey);
  }

  async wantsDetail(reference: string): Promise<boolean> {
    return (await this.redis.sismember(this.detailKey, reference)) === 1;
  }

  /** Counts a failed detail read of the shipment; the count so far. */
  async noteDetailFailure(reference: string): Promise<number> {
    return this.redis.hincrby(this.key(reference), 'detailFailures', 1);
  }

  /** Drops a reference from the detail set (read, given up on, or no longer wanted). */
  async detailDone(reference: string): Promise<void> {
    await this.redis
      .multi()
      .srem(this.detailKey, reference)
      .hdel(this.key(reference), 'detailFailures')
      .exec();
  }

  async noteForeign(references: readonly string[], now = Date.now()): Promise<void> {
    if (references.length === 0) return;
    await this.redis
      .multi()
      .zadd(this.foreignKey, ...references.flatMap((r) => [now, r]))
      .zremrangebyscore(this.foreignKey, '-inf', `(${now - this.keepMs}`)
      .exec();
  }

  async isForeign(reference: string): Promise<boolean> {
    return (await this.redis.zscore(this.foreignKey, reference)) !== null;
  }

  async foreignReferences(): Promise<string[]> {
    return this.redis.zrange(this.foreignKey, 0, -1);
  }

  /** The provider's label of each status seen in a detail read (list items carry none). */
  async labels(): Promise<Record<string, string>> {
    return this.redis.hgetall(this.labelsKey);
  }

  async learnLabel(status: string, label: string): Promise<void> {
    await this.redis.hset(this.labelsKey, status, label);
  }

  // --- The cycle: cursor, last completed start, and the guard against overlapping runs ---

  async cursor(): Promise<SyncCursor | null> {
    const raw = await this.redis.hgetall(this.cursorKey);
    if (!raw.windowStart) return null;
    return {
      windowStart: raw.windowStart,
      page: Number(raw.page),
      startedAtMs: Number(raw.startedAtMs),
      phase: raw.phase === 'details' ? 'details' : 'list',
    };
  }

  async saveCursor(cursor: SyncCursor): Promise<void> {
    await this.redis.hset(this.cursorKey, {
      windowStart: cursor.windowStart,
      page: String(cursor.page),
      startedAtMs: String(cursor.startedAtMs),
      phase: cursor.phase,
    });
  }

  /** Ends a cycle: the next one reaches back to when this one began. */
  async finishCycle(startedAtMs: number): Promise<void> {
    await this.redis.multi().set(this.lastCycleKey, String(startedAtMs)).del(this.cursorKey).exec();
  }

  async lastCycleStartedAtMs(): Promise<number | undefined> {
    const value = await this.redis.get(this.lastCycleKey);
    return value === null ? undefined : Number(value);
  }

  /**
   * Takes (or keeps) the sync's lock for `holder` for `ttlMs`. False when another run holds it:
   * runs never overlap, whichever process they are in. With `takeOverFrom`, a holder whose name
   * starts with it is replaced: an earlier execution of the same job, which BullMQ runs again only
   * once it declared that execution stalled (its worker crashed). Without it, a crash mid-run
   * would stop the sync until the lock expired (10 minutes). Should the earlier execution still
   * be alive, it finds the lock taken at its next page and stops.
   */
  async holdLock(holder: string, ttlMs: number, takeOverFrom?: string): Promise<boolean> {
    const held = await this.redis.eval(
      TAKE_OVER_LOCK,
      1,
      this.lockKey,
      holder,
      ttlMs,
      takeOverFrom ?? holder,
    );
    return held === 1;
  }

  async releaseLock(holder: string): Promise<void> {
    await this.redis.eval(RELEASE_LOCK, 1, this.lockKey, holder);
  }

  /**
   * Takes the shipment's write lock for `holder`: two writes that must not interleave (two
   * fulfilments of one order, by two jobs) take turns. False while another holds it. With
   * `takeOverFrom`, a holder whose name starts with it is replaced, as in `holdLock`: an earlier
   * execution of the same job, which BullMQ runs again only once it declared that execution
   * stalled. That execution, should it still be alive, must check `keepWriteLock` before each
   * write, and stops there.
   */
  async holdWriteLock(
    reference: string,
    holder: string,
    ttlMs: number,
    takeOverFrom?: string,
  ): Promise<boolean> {
    const held = await this.redis.eval(
      TAKE_OVER_LOCK,
      1,
      this.writeLockKey(reference),
      holder,
      ttlMs,
      takeOverFrom ?? holder,
    );
    return held === 1;
  }

  /**
   * Keeps the write lock `holder` holds for another `ttlMs`. False when it holds it no more
   * (taken over, or expired and maybe taken and released by another write meanwhile): what it
   * read before may be stale, so it must not write.
   */
  async keepWriteLock(reference: string, holder: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.eval(KEEP_LOCK, 1, this.writeLockKey(reference), holder, ttlMs)) === 1;
  }

  async releaseWriteLock(reference: string, holder: string): Promise<void> {
    await this.redis.eval(RELEASE_LOCK, 1, this.writeLockKey(reference), holder);
  }
}

/** The order timeline's entry for a status the provider reported (kept only when it changed). */
function statusEntry(status: string, now: number): string {
  return encodeEntry({ at: now, kind: 'provider-status', status });
}

function fieldsOf(side: object): string[] {
  return Object.entries(side).flatMap(([field, value]) =>
    value === undefined ? [] : [field, String(value)],
  );
}

function toShipment(reference: string, raw: Record<string, string>): TrackedShipment {
  const shipment: Record<string, string | number> = { reference };
  for (const [field, value] of Object.entries(raw)) {
    shipment[field] = NUMBER_FIELDS.has(field) ? Number(value) : value;
  }
  return shipment as unknown as TrackedShipment;
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
return 1
`;

// KEYS: shipment, open, needs-detail, timeline. ARGV: reference, readUpdatedAtMs ('' = none),
// keepMs, final, needsDetail, status entry, timeline keepMs, fields…
const SAVE_PROVIDER_SIDE = `
local current = redis.call('HGET', KEYS[1], 'updatedAtMs')
if (current or '') ~= ARGV[2] then return 0 end
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

/**
 * Takes or keeps the lock KEYS[1] for ARGV[1] (ttl ARGV[2] ms): free, or its own, or held by a
 * holder starting with ARGV[3] (an earlier execution of the same job), which it replaces.
 */
const TAKE_OVER_LOCK = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] and string.sub(holder, 1, #ARGV[3]) ~= ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

/** Keeps the lock KEYS[1] for ARGV[2] ms more only if ARGV[1] still holds it. */
const KEEP_LOCK = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

const RELEASE_LOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`;
