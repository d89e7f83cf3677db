import type { Redis } from 'ioredis';

/**
 * What the connector knows about each order it has seen, keyed by the numeric order id (which is
 * also the shipment reference). It answers "was this order registered, skipped or refused, and
 * why?" for the intake, the workers and an admin, without asking Shopify or the provider.
 * Only ids, statuses and admin-safe reasons are stored: no personal data.
 */
export type OrderState = 'registered' | 'skipped' | 'failed';

export interface OrderRecord {
  orderId: string;
  state: OrderState;
  /** When this state was recorded (ISO, UTC). */
  updatedAt: string;
  orderNumber?: string;
  partnerStatus?: string;
  /** The provider's created_at, with its offset. */
  partnerCreatedAt?: string;
  registeredAt?: string;
  skipCode?: string;
  reason?: string;
  /** Set once the order was found cancelled after its shipment was registered. */
  cancelledAfterRegistrationAt?: string;
}

export class OrderRecords {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(orderId: string): string {
    return `${this.prefix}:order:${orderId}`;
  }

  private get registeredIndex(): string {
    return `${this.prefix}:orders:registered`;
  }

  async get(orderId: string): Promise<OrderRecord | null> {
    const raw = await this.redis.hgetall(this.key(orderId));
    if (!raw.state) return null;
    return { ...raw, orderId } as unknown as OrderRecord;
  }

  async isRegistered(orderId: string): Promise<boolean> {
    return (await this.redis.hget(this.key(orderId), 'state')) === 'registered';
  }

  async markRegistered(
    orderId: string,
    shipment: { orderNumber: string; status: string; createdAt: string },
    now = new Date(),
  ): Promise<void> {
    await this.redis
      .multi()
      .hdel(this.key(orderId), 'skipCode', 'reason')
      .hset(this.key(orderId), {
        state: 'registered',
        updatedAt: now.toISOString(),
        registeredAt: now.toISOString(),
        orderNumber: shipment.orderNumber,
        partnerStatus: shipment.status,
        partnerCreatedAt: shipment.createdAt,
      })
      .zadd(this.registeredIndex, now.getTime(), orderId)
      .exec();
  }

  /** Records why an order is not shipped (now). A registered order is never downgraded. */
  async markSkipped(orderId: string, skipCode: string, reason: string, now = new Date()) {
    await this.setUnlessRegistered(orderId, {
      state: 'skipped',
      skipCode,
      reason,
      updatedAt: now.toISOString(),
    });
  }

  /** Records why registering failed, in words an admin can act on. */
  async markFailed(orderId: string, reason: string, now = new Date()) {
    await this.setUnlessRegistered(orderId, {
      state: 'failed',
      reason,
      updatedAt: now.toISOString(),
    });
  }

  /** Returns true only the first time, so the case is reported once per order. */
  async flagCancelledAfterRegistration(orderId: string, now = new Date()): Promise<boolean> {
    const set = await this.redis.hsetnx(
      this.key(orderId),
      'cancelledAfterRegistrationAt',
      now.toISOString(),
    );
    return set === 1;
  }

  async setPartnerStatus(orderId: string, status: string): Promise<void> {
    await this.redis.hset(this.key(orderId), 'partnerStatus', status);
  }

  /** Order ids registered since `since`, oldest first. */
  async registeredSince(since: Date): Promise<string[]> {
    return this.redis.zrangebyscore(this.registeredIndex, since.getTime(), '+inf');
  }

  private async setUnlessRegistered(orderId: string, fields: Record<string, string>) {
    // One script, so a registration landing at the same moment is never overwritten.
    await this.redis.eval(
      SET_UNLESS_REGISTERED,
      1,
      this.key(orderId),
      ...Object.entries(fields).flat(),
    );
  }
}

const SET_UNLESS_REGISTERED = `
if redis.call('HGET', KEYS[1], 'state') == 'registered' then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
`;
