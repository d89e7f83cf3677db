import type { Redis } from 'ioredis';
import type { Logger } from '../log.js';

/**
 * What production needs from Redis, which holds every queued order and every record: an
 * append-only file, so a restart loses at most a second of writes instead of everything since the
 * last RDB snapshot (Debian's default configuration keeps snapshots only), and no eviction, so a
 * full Redis refuses writes (the webhook answers 503, Shopify delivers again) instead of silently
 * dropping jobs and records.
 */
const REQUIRED = {
  appendonly: {
    wanted: 'yes',
    risk: 'a restart loses every order queued or recorded since the last snapshot',
  },
  'maxmemory-policy': {
    wanted: 'noeviction',
    risk: 'a full Redis evicts queued orders and records without a trace',
  },
} as const;

export type DurabilitySetting = keyof typeof REQUIRED;

export type DurabilityReport =
  | { checked: true; unsafe: { setting: DurabilitySetting; value: string | null }[] }
  | { checked: false; reason: string };

/** Reads the settings with CONFIG GET; managed Redis often disables that command. */
export async function checkRedisDurability(redis: Redis): Promise<DurabilityReport> {
  const unsafe: { setting: DurabilitySetting; value: string | null }[] = [];
  try {
    for (const setting of Object.keys(REQUIRED) as DurabilitySetting[]) {
      const reply = (await redis.config('GET', setting)) as string[];
      const value = reply[1] ?? null;
      if (value !== REQUIRED[setting].wanted) unsafe.push({ setting, value });
    }
  } catch (error) {
    return { checked: false, reason: error instanceof Error ? error.message : String(error) };
  }
  return { checked: true, unsafe };
}

/** Checks at start and says, one line per problem, what is at risk and how to fix it. */
export async function warnAboutRedisDurability(
  redis: Redis,
  logger: Logger,
): Promise<DurabilityReport> {
  const report = await checkRedisDurability(redis);
  if (!report.checked) {
    logger.warn(
      { reason: report.reason },
      'could not check Redis persistence (CONFIG GET refused): make sure it runs with appendonly yes and maxmemory-policy noeviction (on managed Redis: enable persistence and turn eviction off)',
    );
    return report;
  }
  for (const { setting, value } of report.unsafe) {
    const { wanted, risk } = REQUIRED[setting];
    logger.warn(
      { setting, value, wanted },
      `Redis runs with ${setting} ${value ?? '(unset)'}: ${risk}. Set "${setting} ${wanted}" in redis.conf (or CONFIG SET ${setting} ${wanted}, then CONFIG REWRITE)`,
    );
  }
  return report;
}
