import type { Redis } from 'ioredis';

/** In Redis, so every process adds to the same numbers; names are final (dashboards use them). */
export const COUNTER_HELP = {
  shipments_registered: 'Orders registered at the provider as shipments (201 or 200).',
  shipments_already_registered:
    'Runs that found their order registered already (a repeated event or replay); nothing was sent.',
  orders_skipped: 'Orders found not eligible (unpaid, test, cancelled, tags) and skipped.',
  orders_refused:
    'Orders that cannot be shipped as they are (a local check or the provider answered 422); tagged shipment-error.',
  shipment_create_failures:
    'Registrations that failed for good (refused, or given up after the last attempt); tagged shipment-error.',
  cancelled_after_registration:
    'Orders cancelled in Shopify after their shipment was registered: staff must ask the provider to cancel.',
  partner_auth_failures:
    'Times the provider refused the partner token (401), which pauses the shipment queues.',
  webhooks_accepted: 'Shopify webhook deliveries accepted (HMAC valid).',
  webhooks_rejected:
    'Shopify webhook deliveries rejected with 401: HMAC missing or wrong, or another shop.',
  webhooks_duplicate: 'Shopify webhook deliveries that were repeats of one already taken.',
  unchanged_refusals_not_resent:
    'Refused or given-up orders brought back by an event unchanged, and not sent again.',
  orders_edited_after_registration:
    'Orders edited after registration (receiver, lines, weights), reported to staff once per edit.',
  order_marks_failed:
    'Marks on Shopify orders (metafields, tags, notes) that failed for good, refusals included.',
  order_marks_refused:
    'Marks Shopify refused itself (userErrors, order gone): not retried on the schedule.',
  order_mark_retries: 'Failed marks retried by the retry-failed-jobs schedule.',
  edit_check_retries: 'Failed edit checks retried by the retry-failed-jobs schedule.',
  interrupted_job_retries:
    'Jobs failed for being cut off mid-run too often (worker crashes), run again by the retry-failed-jobs schedule.',
} as const;

export type CounterName = keyof typeof COUNTER_HELP;

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
