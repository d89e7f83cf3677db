import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../log.js';
import { deleteIfHeld } from '../queue/redis.js';
import type { PartnerApi } from './client.js';
import { PartnerAuthError, PartnerUrlMisconfiguredError } from './errors.js';

export interface PartnerPause {
  reason: 'token_refused' | 'url_misconfigured';
  since: string;
}

/** After a 401 or a wrong-address 404 every call fails alike: all processes pause, via Redis. */
export class PartnerAuthGuard {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly queues: Queue[],
    private readonly logger: Logger,
  ) {}

  tokenRefused(): Promise<void> {
    return this.pause('token_refused');
  }

  urlMisconfigured(): Promise<void> {
    return this.pause('url_misconfigured');
  }

  private async pause(reason: PartnerPause['reason']): Promise<void> {
    // Set before pausing, so paused queues never lack the key that gets them resumed.
    const value = `${new Date().toISOString()} ${randomUUID()} ${reason}`;
    const previous = await this.redis.set(refusedAtKey(this.prefix), value, 'GET');
    await Promise.all(this.queues.map((q) => q.pause()));
    if ((await this.redis.get(refusedAtKey(this.prefix))) === null) {
      // Another process found the partner working between our refusal and our pause.
      await Promise.all(this.queues.map((q) => q.resume()));
      return;
    }
    if (!previous || parsePause(previous).reason !== reason) {
      this.logger.error(pauseMessage({ reason, since: value.split(' ')[0]! }));
    }
  }

  async refusedSince(): Promise<string | null> {
    return (await this.paused())?.since ?? null;
  }

  paused(): Promise<PartnerPause | null> {
    return readPartnerPause(this.redis, this.prefix);
  }

  async tokenAccepted(): Promise<void> {
    const value = await this.redis.get(refusedAtKey(this.prefix));
    if (!value) return;
    // Resume first, then remove exactly the refusal we saw: a crash or new refusal leaves the key.
    await Promise.all(this.queues.map((q) => q.resume()));
    await deleteIfHeld(this.redis, refusedAtKey(this.prefix), value);
    this.logger.info('partner API accepts the token and address again: queues resumed');
  }

  /** Spends one request of the shared budget; answers other than 200, 401, 404 change nothing. */
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

export async function readPartnerPause(redis: Redis, prefix: string): Promise<PartnerPause | null> {
  const value = await redis.get(refusedAtKey(prefix));
  return value ? parsePause(value) : null;
}

export async function tokenRefusedSince(redis: Redis, prefix: string): Promise<string | null> {
  const pause = await readPartnerPause(redis, prefix);
  return pause?.reason === 'token_refused' ? pause.since : null;
}
