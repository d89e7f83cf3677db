import type { Redis } from 'ioredis';
import type { Config } from '../../config/index.js';
import { PartnerBudget } from '../partner/budget.js';

/** Kept apart from the partner client, so the HTTP side reads it without loading the client. */
export function buildPartnerBudget(
  settings: Config['partner'],
  redis: Redis,
  /** Shared by every prefix. */
  keyPrefix?: string,
): PartnerBudget {
  return new PartnerBudget(redis, {
    token: settings.token,
    limit: settings.rateLimit,
    windowMs: settings.rateWindowMs,
    syncReserve: settings.syncReserve,
    ...(keyPrefix ? { keyPrefix } : {}),
  });
}
