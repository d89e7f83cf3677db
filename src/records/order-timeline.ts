import type { Redis } from 'ioredis';

/**
 * What happened to an order that nothing else keeps (job runs and staff actions are read from
 * BullMQ and the audit trail). Bounded per order; ids, statuses and routes only: no personal data.
 */
export type StoredTimelineEntry =
  /** A sign of the order: a webhook topic, a reconciliation pass, a backfill. */
  | { at: number; kind: 'event'; source: string }
  /** A request to the provider about this order, and its HTTP status (null: no answer). */
  | { at: number; kind: 'provider-request'; method: string; path: string; status: number | null }
  /** The provider's status as the connector learnt it (registration or the status sync). */
  | { at: number; kind: 'provider-status'; status: string }
  /** A write to the Shopify order, e.g. "fulfilled" or "order marks: registered". */
  | { at: number; kind: 'shopify-write'; write: string };

export const TIMELINE_LIMIT = 200;
export const TIMELINE_DAYS = 60;
/** Kept this long after an order's last entry. */
export const TIMELINE_KEEP_MS = TIMELINE_DAYS * 24 * 3600_000;

/** The Redis key of an order's timeline (the shipment records' scripts write it too). */
export function timelineKey(prefix: string, orderId: string): string {
  return `${prefix}:timeline:${orderId}`;
}

/** The kinds that carry one text: their code and field. */
const TEXT_KINDS = {
  event: ['e', 'source'],
  'provider-status': ['s', 'status'],
  'shopify-write': ['w', 'write'],
} as const;

/** `<ms in base 36> <code> <fields>`: terse, so an order's whole story stays under a kilobyte. */
export function encodeEntry(entry: StoredTimelineEntry): string {
  const at = entry.at.toString(36);
  if (entry.kind === 'provider-request') {
    return `${at} p ${entry.method} ${entry.path} ${entry.status ?? '-'}`;
  }
  const [code, field] = TEXT_KINDS[entry.kind];
  return `${at} ${code} ${(entry as Partial<Record<typeof field, string>>)[field]}`;
}

export function decodeEntry(raw: string): StoredTimelineEntry | null {
  const match = /^([0-9a-z]+) ([epsw]) (.*)$/s.exec(raw);
  if (!match) return null;
  const [, base36 = '', code, rest = ''] = match;
  const at = Number.parseInt(base36, 36);
  const text = Object.entries(TEXT_KINDS).find(([, [textCode]]) => textCode === code);
  if (text) return { at, kind: text[0], [text[1][1]]: rest } as StoredTimelineEntry;
  const [method = '?', path = '?', status = '-'] = rest.split(' ');
  return {
    at,
    kind: 'provider-request',
    method,
    path,
    status: status === '-' ? null : Number(status),
  };
}

/** The Lua lines that add ARGV[i] to KEYS[k] and keep the list bounded (shared with tracking). */
export function pushEntryLua(key: string, entry: string, keepMs: string): string {
  return `redis.call('LPUSH', ${key}, ${entry})
redis.call('LTRIM', ${key}, 0, ${TIMELINE_LIMIT - 1})
redis.call('PEXPIRE', ${key}, ${keepMs})`;
}

// KEYS: timeline. ARGV: entry, keepMs.
const PUSH = pushEntryLua('KEYS[1]', 'ARGV[1]', 'ARGV[2]');

export class OrderTimeline {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  key(orderId: string): string {
    return timelineKey(this.prefix, orderId);
  }

  async note(orderId: string, entry: StoredTimelineEntry): Promise<void> {
    await this.redis.eval(PUSH, 1, this.key(orderId), encodeEntry(entry), TIMELINE_KEEP_MS);
  }

  async read(orderId: string, now = Date.now()): Promise<StoredTimelineEntry[]> {
    const raw = await this.redis.lrange(this.key(orderId), 0, TIMELINE_LIMIT - 1);
    return raw
      .flatMap((line) => decodeEntry(line) ?? [])
      .filter((entry) => entry.at >= now - TIMELINE_KEEP_MS)
      .sort((a, b) => a.at - b.at);
  }
}
