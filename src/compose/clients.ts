import type { Redis } from 'ioredis';
import type { Config } from '../../config/index.js';
import type { Logger } from '../log.js';
import { PartnerClient, type PartnerRequestOutcome } from '../partner/client.js';
import type { OrderTimeline } from '../records/order-timeline.js';
import type { StoreHealth } from '../records/store-health.js';
import { createStoreClient } from '../store/client.js';
import { SharedStoreBucket, type StoreRequestOutcome } from '../store/index.js';
import type { StoreClient } from '../store/types.js';
import { buildPartnerBudget } from './budget.js';

export type PartnerSide = ReturnType<typeof buildPartnerSide>;

/** Route and status only; a request's outcome never waits for, or fails with, the note. */
export function noteRequestsOnTimeline(timeline: Pick<OrderTimeline, 'note'>, logger: Logger) {
  return ({ endpoint, status, reference }: PartnerRequestOutcome) => {
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

export function buildPartnerSide(
  settings: Config['partner'],
  redis: Redis,
  logger: Logger,
  /** Shared by every prefix. */
  budgetKeyPrefix?: string,
  onRequest?: (outcome: PartnerRequestOutcome) => void,
) {
  const budget = buildPartnerBudget(settings, redis, budgetKeyPrefix);
  const { apiUrl, rateLimit, rateWindowMs, syncReserve, ...client } = settings;
  return {
    budget,
    partner: new PartnerClient({
      ...client,
      baseUrl: apiUrl,
      gate: budget,
      logger: logger.child({ module: 'partner' }),
      ...(onRequest ? { onRequest } : {}),
    }),
  };
}

/** With `shared`, each request first takes its cost from the shop's bucket model in Redis. */
export function buildStoreClient(
  settings: Config['shopify'],
  logger: Logger,
  health?: StoreHealth,
  onRequest?: (outcome: StoreRequestOutcome) => void,
  shared?: { redis: Redis; prefix: string },
): StoreClient {
  const { reserveShare, followUpReserve, ...shop } = settings;
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
            followUpReserve,
          }),
        }
      : {}),
  });
}
