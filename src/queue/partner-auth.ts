import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../log.js';
import type { PartnerApi } from '../partner/client.js';
import { PartnerAuthError } from '../partner/errors.js';

/**
 * A 401 means the token is missing, malformed or revoked: every further call would fail the same
 * way. So the first 401 pauses every queue that calls the partner (in every process, since the
 * pause lives in Redis) and marks the service unhealthy; jobs wait in their queues with their
 * attempts intact. Once a valid token works again, the queues resume.
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

  async tokenRefused(): Promise<void> {
    // Always a fresh value, set before pausing: whatever interleaves with `tokenAccepted` in
    // another process, paused queues are never left without the key that gets them resumed.
    const value = `${new Date().toISOString()} ${randomUUID()}`;
    const previous = await this.redis.set(this.key, value, 'GET');
    await Promise.all(this.queues.map((q) => q.pause()));
    if ((await this.redis.get(this.key)) === null) {
      // Another process found the token working between our refusal and our pause.
      await Promise.all(this.queues.map((q) => q.resume()));
      return;
    }
    if (!previous) {
      this.logger.error(
        'partner API refused the token (401): shipment and sync queues are paused until a valid PARTNER_API_TOKEN works',
      );
    }
  }

  /** When the token was refused (ISO time), or null while it is accepted. */
  refusedSince(): Promise<string | null> {
    return tokenRefusedSince(this.redis, this.prefix);
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
    this.logger.info('partner API accepts the token again: queues resumed');
  }

  /**
   * While the token is marked refused, tries it with one cheap request. Returns whether the
   * token is (now) accepted; an answer other than 200 or 401 changes nothing.
   */
  async probe(partner: PartnerApi): Promise<boolean> {
    if (!(await this.refusedSince())) return true;
    try {
      await partner.listShipments({ perPage: 1 }, { priority: 'sync' });
    } catch (error) {
      if (!(error instanceof PartnerAuthError)) {
        this.logger.warn({ err: error }, 'could not check the partner token; will try again');
      }
      return false;
    }
    await this.tokenAccepted();
    return true;
  }
}

function refusedAtKey(prefix: string): string {
  return `${prefix}:partner-auth:refused-at`;
}

/** When the partner token was refused (ISO time), or null while it is accepted: for readers. */
export async function tokenRefusedSince(redis: Redis, prefix: string): Promise<string | null> {
  const value = await redis.get(refusedAtKey(prefix));
  return value ? (value.split(' ')[0] ?? value) : null;
}
