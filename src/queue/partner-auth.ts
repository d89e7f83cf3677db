import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../log.js';
import type { PartnerApi } from '../partner/client.js';
import { PartnerAuthError, PartnerUrlMisconfiguredError } from '../partner/errors.js';

/** Why the partner queues are paused: a refused token, or a base address that is not the API's. */
export type PartnerPauseReason = 'token_refused' | 'url_misconfigured';

export interface PartnerPause {
  reason: PartnerPauseReason;
  /** When the queues were paused (ISO time). */
  since: string;
}

/**
 * A 401 means the token is missing, malformed or revoked; a 404 from a route the API always has
 * means PARTNER_API_URL is wrong. Either way every further call would fail the same way. So the
 * first one pauses every queue that calls the partner (in every process, since the pause lives in
 * Redis) with its reason, for /status and the health check; jobs wait in their queues with their
 * attempts intact. Once a request works again, the queues resume.
 */
export class PartnerAuthGuard {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly queues: Queue[],
    private readonly logger: Logger,
  ) {}

  private get key() {
    return refusedAtKey(this.prefix);
  }

  tokenRefused(): Promise<void> {
    return this.pause('token_refused');
  }

  urlMisconfigured(): Promise<void> {
    return this.pause('url_misconfigured');
  }

  private async pause(reason: PartnerPauseReason): Promise<void> {
    // Always a fresh value, set before pausing: whatever interleaves with `tokenAccepted` in
    // another process, paused queues are never left without the key that gets them resumed.
    const value = `${new Date().toISOString()} ${randomUUID()} ${reason}`;
    const previous = await this.redis.set(this.key, value, 'GET');
    await Promise.all(this.queues.map((q) => q.pause()));
    if ((await this.redis.get(this.key)) === null) {
      // Another process found the partner working between our refusal and our pause.
      await Promise.all(this.queues.map((q) => q.resume()));
      return;
    }
    if (!previous || parsePause(previous).reason !== reason) {
      this.logger.error(pauseMessage({ reason, since: value.split(' ')[0]! }));
    }
  }

  /** When the token was refused (ISO time), or null while it is accepted. */
  async refusedSince(): Promise<string | null> {
    return (await this.paused())?.since ?? null;
  }

  /** Why and since when the partner queues are paused, or null while they run. */
  paused(): Promise<PartnerPause | null> {
    return readPartnerPause(this.redis, this.prefix);
  }

  async tokenAccepted(): Promise<void> {
    const value = await this.redis.get(this.key);
    if (!value) return;
    // Resume first, then remove exactly the refusal we saw: a crash in between, or a new
    // refusal meanwhile, leaves the key, so a later probe finishes the job.
    await Promise.all(this.queues.map((q) => q.resume()));
    await this.redis.eval(
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
      1,
      this.key,
      value,
    );
    this.logger.info('partner API accepts the token and address again: queues resumed');
  }

  /**
   * While the queues are paused (or always, with `always`: the check at start), tries the token
   * and address with one cheap request from the shared budget (`GET /shipments?per_page=1`).
   * A 401 or a 404 pauses the queues with that reason; a 200 resumes them. Returns whether the
   * partner accepts the token; any other answer changes nothing.
   */
  async probe(partner: PartnerApi, options: { always?: boolean } = {}): Promise<boolean> {
    if (!options.always && !(await this.paused())) return true;
    try {
      await partner.listShipments({ perPage: 1 }, { priority: 'sync' });
    } catch (error) {
      if (error instanceof PartnerAuthError) await this.tokenRefused();
      else if (error instanceof PartnerUrlMisconfiguredError) await this.urlMisconfigured();
      else this.logger.warn({ err: error }, 'could not check the partner token; will try again');
      return false;
    }
    await this.tokenAccepted();
    return true;
  }
}

/** What an admin reads about a pause: in the log, /status and `connector status`. */
export function pauseMessage(pause: PartnerPause): string {
  return pause.reason === 'url_misconfigured'
    ? `the partner API answered 404 to a route it always has (at ${pause.since}): PARTNER_API_URL is misconfigured (it must include /api/v1); shipment queues are paused until it is fixed`
    : `the partner API refused the token (401) at ${pause.since}: shipment queues are paused until a valid PARTNER_API_TOKEN works`;
}

function parsePause(value: string): PartnerPause {
  const [since, , reason] = value.split(' ');
  return {
    since: since ?? value,
    reason: reason === 'url_misconfigured' ? 'url_misconfigured' : 'token_refused',
  };
}

function refusedAtKey(prefix: string): string {
  return `${prefix}:partner-auth:refused-at`;
}

/** Why and since when the partner queues are paused, or null while they run: for readers. */
export async function readPartnerPause(redis: Redis, prefix: string): Promise<PartnerPause | null> {
  const value = await redis.get(refusedAtKey(prefix));
  return value ? parsePause(value) : null;
}

/** When the partner token was refused (ISO time), or null while it is accepted: for readers. */
export async function tokenRefusedSince(redis: Redis, prefix: string): Promise<string | null> {
  const pause = await readPartnerPause(redis, prefix);
  return pause?.reason === 'token_refused' ? pause.since : null;
}
