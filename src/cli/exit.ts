import type { Redis } from 'ioredis';
import { type Config, ConfigError, loadSettings } from '../../config/index.js';
import { shipmentReader } from '../compose/shipment-reader.js';
import { createLogger } from '../log.js';
import { connectedRedis } from '../queue/redis.js';
import {
  claimPartnerEnvironment,
  PartnerEnvironmentMismatchError,
} from '../records/partner-environment.js';

/** sysexits(3) codes, so scripts can tell a bad setting from an outage. */
export const EXIT = { usage: 2, noInput: 66, unavailable: 69, config: 78 } as const;

type ErrorClass = abstract new (...args: never[]) => Error;

/** For `.catch`: undefined after printing an expected error and setting the exit code. */
export function exitOn(expected: ErrorClass[], code: number, why?: string) {
  return (error: unknown): undefined => {
    if (!(error instanceof Error && expected.some((kind) => error instanceof kind))) throw error;
    console.error(why ? `${why}: ${error.message}` : error.message);
    process.exitCode = code;
    return undefined;
  };
}

/** Undefined after printing every problem and setting the exit code. */
export function settingsOrExit<T>(load: () => T, why?: string): T | undefined {
  try {
    return load();
  } catch (error) {
    return exitOn([ConfigError], EXIT.config, why)(error);
  }
}

/** Runs `work` on a connection it closes after; nothing after saying why Redis is out of reach. */
export async function withRedisAt(url: string, work: (redis: Redis) => Promise<void>) {
  const redis = await connectedRedis(url).catch(exitOn([Error], EXIT.unavailable));
  if (!redis) return;
  try {
    await work(redis);
  } finally {
    await redis.quit();
  }
}

/** Reading needs only REDIS_URL and QUEUE_PREFIX; `why` heads the message when they are wrong. */
export async function withRedis(
  why: string,
  work: (redis: Redis, prefix: string) => Promise<void>,
): Promise<void> {
  const location = settingsOrExit(() => loadSettings(['redis']).redis, why);
  if (location) await withRedisAt(location.url, (redis) => work(redis, location.queuePrefix));
}

/** False after printing why not and what to do. */
export async function environmentOrExit(
  redis: Redis,
  config: Config,
  /** Records nothing; the same verdict the real run would get. */
  dryRun = false,
): Promise<boolean> {
  const claim = await claimPartnerEnvironment(
    redis,
    config.redis.queuePrefix,
    config.partner,
    new Date(),
    shipmentReader(config.partner, redis, createLogger({ level: 'warn' })),
    dryRun,
  ).catch(exitOn([PartnerEnvironmentMismatchError], EXIT.config));
  if (!claim) return false;
  if (claim.outcome === 'token_adopted' && !dryRun) {
    console.error(
      `New partner token for ${config.partner.apiUrl}: ${claim.checkedReference ? `it reads shipment ${claim.checkedReference}, registered with the old one (same account)` : 'no shipment registered yet'}; adopted.`,
    );
  }
  return true;
}
