import type { Redis } from 'ioredis';

/** In Redis, so every process adds to the same numbers; names are final (dashboards use them). */
export type CounterName =
  | 'shipments_registered'
  | 'shipments_already_registered'
  | 'orders_skipped'
  | 'orders_refused'
  | 'shipment_create_failures'
  | 'cancelled_after_registration'
  | 'partner_auth_failures'
  | 'webhooks_accepted'
  | 'webhooks_rejected'
  | 'webhooks_duplicate'
  /** A refused or given-up order brought back by an event, unchanged: not sent again. */
  | 'unchanged_refusals_not_resent'
  /** Once per edit. */
  | 'orders_edited_after_registration'
  /** Shopify's refusals included. */
  | 'order_marks_failed'
  /** …of which Shopify refused the write itself (userErrors, order gone): not retried on schedule. */
  | 'order_marks_refused'
  | 'order_mark_retries'
  | 'edit_check_retries'
  /** Jobs cut off mid-run too often, run again on schedule. */
  | 'interrupted_job_retries';

export class Counters {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private get key(): string {
    return `${this.prefix}:metrics:counters`;
  }

  async increment(name: CounterName, by = 1): Promise<void> {
    await this.redis.hincrby(this.key, name, by);
  }

  async read(): Promise<Partial<Record<CounterName, number>>> {
    const raw = await this.redis.hgetall(this.key);
    return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Number(v)]));
  }
}
