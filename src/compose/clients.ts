import type { Redis } from 'ioredis';
import type { Config } from '../../config/index.js';
import type { Logger } from '../log.js';
import { PartnerClient, type PartnerRequestOutcome } from '../partner/client.js';
import type { PartnerBudget } from '../queue/partner-budget.js';
import type { OrderTimeline } from '../records/order-timeline.js';
import type { StoreHealth } from '../records/store-health.js';
import { createStoreClient } from '../store/client.js';
import { SharedStoreBucket, type StoreRequestOutcome } from '../store/index.js';
import type { StoreClient } from '../store/types.js';
import { buildPartnerBudget } from './budget.js';

export interface PartnerSide {
  partner: PartnerClient;
  budget: PartnerBudget;
}

/**
 * Notes each request about one shipment (create, detail read) on its order's timeline: route and
 * status only. In the background: a request's outcome never waits for, or fails with, the note.
 */
export function noteRequestsOnTimeline(
  timeline: Pick<OrderTimeline, 'note'>,
  logger: Logger,
): (outcome: PartnerRequestOutcome) => void {
  return ({ endpoint, status, reference }) => {
    if (reference === undefined) return;
    const [method = '?', path = '?'] = endpoint.split(' ');
    timeline
      .note(reference, {
        at: Date.now(),
        kind: 'provider-request',
        method,
        path,
        status: status ?? null,
      })
      .catch((err) => logger.warn({ err, reference }, 'could not note a request on the timeline'));
  };
}

/** The partner client, drawing every request from the one budget of its token in Redis. */
export function buildPartnerSide(
  settings: Config['partner'],
  redis: Redis,
  logger: Logger,
  /** Where the budget keys live (default `partner-budget`, shared by every prefix). */
  budgetKeyPrefix?: string,
  /** Told how each request ended (the metrics). */
  onRequest?: (outcome: PartnerRequestOutcome) => void,
): PartnerSide {
  const budget = buildPartnerBudget(settings, redis, budgetKeyPrefix);
  const partner = new PartnerClient({
    baseUrl: settings.apiUrl,
    token: settings.token,
    timeoutMs: settings.timeoutMs,
    retryAfterDefaultMs: settings.retryAfterDefaultMs,
    retryAfterMaxMs: settings.retryAfterMaxMs,
    gate: budget,
    logger: logger.child({ module: 'partner' }),
    ...(onRequest ? { onRequest } : {}),
  });
  return { partner, budget };
}

/**
 * The Shopify Admin client from the shop's settings; `health` hears how each request ends, and
 * `onRequest` each request's cost and throttling (the metrics). With `shared`, every request
 * first takes its cost from the shop's bucket model in that Redis, under the connector's prefix,
 * which every process of the connector shares; one-off commands go without.
 */
export function buildStoreClient(
  settings: Config['shopify'],
  logger: Logger,
  health?: StoreHealth,
  onRequest?: (outcome: StoreRequestOutcome) => void,
  shared?: { redis: Redis; prefix: string },
): StoreClient {
  const { reserveShare, ...shop } = settings;
  return createStoreClient({
    ...shop,
    logger,
    ...(health ? { onOutcome: (outcome) => health.report(outcome) } : {}),
    ...(onRequest ? { onRequest } : {}),
    ...(shared
      ? {
          bucket: new SharedStoreBucket(shared.redis, {
            prefix: shared.prefix,
            shop: settings.shop,
            reserveShare,
          }),
        }
      : {}),
  });
}
