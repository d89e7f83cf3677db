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
    return `${this.prefix}:partner-auth:refused-at`;
  }

  async tokenRefused(): Promise<void> {
    const first = await this.redis.set(this.key, new Date().toISOString(), 'NX');
    await Promise.all(this.queues.map((q) => q.pause()));
    if (first) {
      this.logger.error(
        'partner API refused the token (401): shipment and sync queues are paused until a valid PARTNER_API_TOKEN works',
      );
    }
  }

  /** When the token was refused, or null while it is accepted. */
  async refusedSince(): Promise<string | null> {
    return this.redis.get(this.key);
  }

  async tokenAccepted(): Promise<void> {
    const wasRefused = (await this.redis.del(this.key)) === 1;
    if (wasRefused) {
      await Promise.all(this.queues.map((q) => q.resume()));
      this.logger.info('partner API accepts the token again: queues resumed');
    }
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
