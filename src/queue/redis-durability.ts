import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { messageOf } from '../error-message.js';
import type { Logger } from '../log.js';

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

/** Throws where CONFIG GET is refused, as managed Redis often does. */
async function configValue(redis: Redis, setting: string): Promise<string | null> {
  return ((await redis.config('GET', setting)) as string[])[1] ?? null;
}

export async function warnAboutRedisDurability(redis: Redis, logger: Logger) {
  const unsafe: { setting: keyof typeof REQUIRED; value: string | null }[] = [];
  try {
    for (const setting of Object.keys(REQUIRED) as (keyof typeof REQUIRED)[]) {
      const value = await configValue(redis, setting);
      if (value !== REQUIRED[setting].wanted) unsafe.push({ setting, value });
    }
  } catch (error) {
    const reason = messageOf(error);
    logger.warn(
      { reason },
      'could not check Redis persistence (CONFIG GET refused): make sure it runs with appendonly yes and maxmemory-policy noeviction (on managed Redis: enable persistence and turn eviction off)',
    );
    return { checked: false, reason };
  }
  for (const { setting, value } of unsafe) {
    const { wanted, risk } = REQUIRED[setting];
    logger.warn(
      { setting, value, wanted },
      `Redis runs with ${setting} ${value ?? '(unset)'}: ${risk}. Set "${setting} ${wanted}" in redis.conf (or CONFIG SET ${setting} ${wanted}, then CONFIG REWRITE)`,
    );
  }
  return { checked: true, unsafe };
}

/** A CONFIG SET needs no restart of Redis, so the workers read it again. */
export const EVICTION_CHECK_INTERVAL_MS = 180_000;

function readEvictionPolicy(redis: Redis) {
  return configValue(redis, 'maxmemory-policy').then(
    (policy) => ({ checked: true as const, policy: policy ?? '(unset)' }),
    (error: unknown) => ({ checked: false as const, reason: messageOf(error) }),
  );
}

const EVICTION_RISK =
  "under memory pressure it deletes keys to make room: queued orders, order records and the fulfilment's write lock can vanish without a trace";

export class EvictionPolicyError extends Error {
  override name = 'EvictionPolicyError';
  constructor(readonly policy: string) {
    super(
      `Redis runs with maxmemory-policy ${policy}: ${EVICTION_RISK}, so the queue workers do not start. Set "maxmemory-policy noeviction" (redis.conf, or CONFIG SET maxmemory-policy noeviction then CONFIG REWRITE; on a managed Redis, in its settings), or set REDIS_ALLOW_EVICTION=true to run anyway and accept the risk.`,
    );
  }
}

/** When CONFIG GET is refused the policy cannot be known: the workers start, with a warning. */
export async function refuseEvictingRedis(redis: Redis, logger: Logger, allowEviction: boolean) {
  const reading = await readEvictionPolicy(redis);
  if (!reading.checked) {
    logger.warn(
      { reason: reading.reason },
      'could not read Redis maxmemory-policy (CONFIG GET refused, as on most managed Redis): the workers start; make sure the service runs with eviction off (noeviction), as nothing here can check it',
    );
  } else if (reading.policy !== REQUIRED['maxmemory-policy'].wanted) {
    if (!allowEviction) throw new EvictionPolicyError(reading.policy);
    logger.warn(
      { policy: reading.policy },
      `Redis runs with maxmemory-policy ${reading.policy}: ${EVICTION_RISK}. REDIS_ALLOW_EVICTION=true: the workers run anyway`,
    );
  }
}

function evictionPauseKey(prefix: string): string {
  return `${prefix}:redis:eviction-pause`;
}

/** Kept in Redis for /status and the CLI. */
export async function readEvictionPause(redis: Redis, prefix: string) {
  const value = await redis.get(evictionPauseKey(prefix));
  if (!value) return null;
  const [since = value, policy = '(unknown)'] = value.split(' ');
  return { since, policy };
}

export function evictionPauseMessage(pause: { policy: string; since: string }): string {
  return `Redis runs with maxmemory-policy ${pause.policy} (seen at ${pause.since}): the queue workers are paused until it is noeviction again, because ${EVICTION_RISK}`;
}

/** Pauses the workers while Redis may evict keys; a refused CONFIG GET changes nothing. */
export class EvictionPolicyWatch {
  private paused = false;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly workers: readonly Pick<Worker, 'pause' | 'resume'>[],
    private readonly logger: Logger,
  ) {}

  async check(): Promise<'running' | 'paused' | 'unknown'> {
    const reading = await readEvictionPolicy(this.redis);
    if (!reading.checked) return this.paused ? 'paused' : 'unknown';
    const key = evictionPauseKey(this.prefix);
    if (reading.policy === REQUIRED['maxmemory-policy'].wanted) {
      // Cleared by whichever process sees it fixed first.
      if ((await this.redis.del(key)) > 0 || this.paused) {
        this.logger.info(
          'Redis runs with maxmemory-policy noeviction again: queue workers resumed',
        );
      }
      if (this.paused) for (const worker of this.workers) worker.resume();
      this.paused = false;
      return 'running';
    }
    // The first sighting's time stays.
    const stored = await readEvictionPause(this.redis, this.prefix);
    const pause = { since: stored?.since ?? new Date().toISOString(), policy: reading.policy };
    if (stored?.policy !== pause.policy)
      await this.redis.set(key, `${pause.since} ${pause.policy}`);
    if (!this.paused) {
      this.paused = true;
      await Promise.all(this.workers.map((worker) => worker.pause(true)));
      this.logger.error({ policy: reading.policy }, evictionPauseMessage(pause));
    }
    return 'paused';
  }
}
