import type { Redis } from 'ioredis';

/**
 * Counters of what happened, kept in Redis so that every worker process adds to the same numbers.
 * The operations side exposes them; names are snake_case and final.
 */
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
  /** An order edited after its shipment was registered, reported to staff (once per edit). */
  | 'orders_edited_after_registration'
  /** A mark on the Shopify order that failed for good (Shopify's refusals included). */
  | 'order_marks_failed'
  /** …of which Shopify refused the write itself (userErrors, order gone): not retried on schedule. */
  | 'order_marks_refused'
  /** Failed marks retried by the retry-failed-jobs schedule. */
  | 'order_mark_retries'
  /** Failed edit checks retried by the retry-failed-jobs schedule. */
  | 'edit_check_retries'
  /** Jobs failed for being cut off mid-run too often, run again by the retry-failed-jobs schedule. */
  | 'interrupted_job_retries';

export class Counters {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** The hash holding every counter. */
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
