import type { Redis } from 'ioredis';
import { StoreAuthError, StoreThrottledError } from '../store/errors.js';
import type { StoreOutcome } from '../store/transport/admin-transport.js';

export type StoreHealthStatus = 'ok' | 'access_refused' | 'throttled' | 'failing';

const REFRESH_MS = 60_000;

/** Writes only on a change (or once a minute), so Admin API calls cost no Redis round trip. */
export class StoreHealth {
  private last: { status: StoreHealthStatus; writtenAt: number } | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly now: () => number = Date.now,
  ) {}

  private get key() {
    return `${this.prefix}:store-health`;
  }

  /** Never throws: health must not break the work. */
  report(outcome: StoreOutcome): void {
    const { status, reason } = describe(outcome);
    const now = this.now();
    if (this.last?.status === status && now - this.last.writtenAt < REFRESH_MS) return;
    const changed = this.last?.status !== status;
    this.last = { status, writtenAt: now };
    const seenAt = new Date(now).toISOString();
    const fields = { status, reason: reason ?? '', seenAt, ...(changed ? { since: seenAt } : {}) };
    this.redis.hset(this.key, fields).catch(() => {
      this.last = undefined; // try again on the next outcome
    });
  }

  async read() {
    const raw = await this.redis.hgetall(this.key);
    if (!raw.status) return { status: 'unknown' as const, since: null, reason: null };
    return {
      status: raw.status as StoreHealthStatus,
      since: raw.since ?? null,
      reason: raw.reason || null,
    };
  }
}

function describe(outcome: StoreOutcome): { status: StoreHealthStatus; reason: string | null } {
  if (outcome.ok) return { status: 'ok', reason: null };
  const { error } = outcome;
  if (error instanceof StoreAuthError) {
    return {
      status: 'access_refused',
      reason: `${error.message} Check SHOPIFY_ACCESS_TOKEN (or SHOPIFY_CLIENT_ID and SHOPIFY_CLIENT_SECRET) and the app's scopes.`,
    };
  }
  if (error instanceof StoreThrottledError) return { status: 'throttled', reason: error.message };
  // A refusal of one input (userErrors) or a missing order: Shopify answered; access is fine.
  if (error.kind === 'user_error' || error.kind === 'not_found')
    return { status: 'ok', reason: null };
  return { status: 'failing', reason: error.message };
}
