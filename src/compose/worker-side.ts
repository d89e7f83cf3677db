import type { Redis } from 'ioredis';
import type { Config } from '../../config/index.js';
import type { Logger } from '../log.js';
import type { RequestMetrics } from '../metrics/request-metrics.js';
import { closeWorkers } from '../queue/close-workers.js';
import { EVICTION_CHECK_INTERVAL_MS, EvictionPolicyWatch } from '../queue/redis-durability.js';
import { StoreHealth } from '../records/store-health.js';
import { StoreAuthError } from '../store/errors.js';
import { missingScopes } from '../store/setup/scopes.js';
import type { StoreSetup } from '../store/setup/types.js';
import { buildPartnerSide, buildStoreClient, noteRequestsOnTimeline } from './clients.js';
import { checkCollectionLocations } from './collection-locations.js';
import type { SharedParts } from './parts.js';
import { jobConcurrency, keepSchedules, startWorkers, type WorkerOptions } from './workers.js';

/** Only the process or thread that runs the workers loads this module and Shopify's library. */

export interface WorkerSideOptions {
  parts: SharedParts;
  /** Waits for Redis rather than failing fast. */
  redis: Redis;
  logger: Logger;
  requests: RequestMetrics;
  /** Keep it under the orchestrator's stop timeout; stopped jobs run again later. Default 20 s. */
  shutdownGraceMs?: number;
  // Only tests change these three.
  jobLock?: WorkerOptions['jobLock'];
  scheduleRefreshMs?: number;
  evictionCheckMs?: number;
}

/** So that a restored token resumes the queues. */
const AUTH_PROBE_INTERVAL_MS = 60_000;

/** Should Redis have lost them. */
const SCHEDULE_REFRESH_MS = 60_000;

export async function startWorkerSide(config: Config, options: WorkerSideOptions) {
  const { parts, redis, logger, requests } = options;
  const store = buildStoreClient(
    config.shopify,
    logger,
    new StoreHealth(redis, parts.prefix),
    requests.storeRequest,
    { redis, prefix: parts.prefix },
  );
  // In the background: Shopify being slow must not hold up the start.
  void checkShopifyAccess(store, logger);
  void checkCollectionLocations(store, config.shipment.collectFromLocations, logger);
  const onTimeline = noteRequestsOnTimeline(parts.timeline, logger);
  const { partner } = buildPartnerSide(config.partner, redis, logger, undefined, (outcome) => {
    requests.partnerRequest(outcome);
    onTimeline(outcome);
  });

  const workers = startWorkers(
    { ...parts, store, partner },
    {
      connection: redis,
      concurrency: jobConcurrency(config.concurrency),
      ...(options.jobLock ? { jobLock: options.jobLock } : {}),
    },
  );
  const stopSchedules = await keepSchedules(parts, {
    intervalMs: options.scheduleRefreshMs ?? SCHEDULE_REFRESH_MS,
    logger,
  });

  // Before any order meets a refused token or wrong PARTNER_API_URL.
  await parts.authGuard
    .probe(partner, { always: true })
    .catch((err) => logger.warn({ err }, 'partner check at start failed'));
  const probe = () =>
    parts.authGuard.probe(partner).catch((err) => logger.warn({ err }, 'token probe failed'));
  const probeTimer = setInterval(probe, AUTH_PROBE_INTERVAL_MS).unref();

  // At start too: clears a pause left by an earlier run.
  const evictionWatch = config.redis.allowEviction
    ? undefined
    : new EvictionPolicyWatch(redis, parts.prefix, workers, logger);
  const checkEviction = () =>
    evictionWatch?.check().catch((err) => logger.warn({ err }, 'Redis policy check failed'));
  void checkEviction();
  const evictionTimer = setInterval(
    checkEviction,
    options.evictionCheckMs ?? EVICTION_CHECK_INTERVAL_MS,
  ).unref();

  return {
    async close() {
      clearInterval(probeTimer);
      clearInterval(evictionTimer);
      stopSchedules();
      await closeWorkers(workers, options.shutdownGraceMs ?? 20_000, logger);
    },
  };
}

async function checkShopifyAccess(
  store: Pick<StoreSetup, 'shopIdentity' | 'grantedScopes'>,
  logger: Logger,
): Promise<void> {
  try {
    const shop = await store.shopIdentity();
    logger.info({ shopName: shop.name }, 'Shopify accepts the access token');
    const missing = missingScopes(await store.grantedScopes());
    if (missing.length > 0) {
      logger.error(
        `The Shopify app lacks the access scopes ${missing.join(', ')}: add them to the app (README: "Setting up the Shopify side, step by step", or run \`connector setup\`), or the writes that need them will fail`,
      );
    }
  } catch (error) {
    if (error instanceof StoreAuthError) {
      logger.error(
        `Shopify refused the access token at start (${error.message}): check SHOPIFY_ACCESS_TOKEN (or SHOPIFY_CLIENT_ID and SHOPIFY_CLIENT_SECRET), SHOPIFY_SHOP and the app's scopes`,
      );
    } else {
      logger.warn({ err: error }, 'could not check Shopify access at start; orders will tell');
    }
  }
}
