import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config/index.js';
import { buildPartnerSide, buildStoreClient, buildWebhookVerifier } from './compose/clients.js';
import { registerSharedMetrics } from './compose/metrics.js';
import { buildSharedParts } from './compose/parts.js';
import {
  jobConcurrency,
  keepSchedules,
  startWorkers,
  type WorkerOptions,
} from './compose/workers.js';
import type { Logger } from './log.js';
import { ConnectorMetrics } from './metrics/registry.js';
import { requestMetrics } from './metrics/request-metrics.js';
import { minimumRetrySpanMs } from './queue/backoff.js';
import { closeWorkers } from './queue/close-workers.js';
import { tokenRefusedSince } from './queue/partner-auth.js';
import { createRedis } from './queue/redis.js';
import { warnAboutRedisDurability } from './queue/redis-durability.js';
import { claimPartnerEnvironment } from './records/partner-environment.js';
import { StoreHealth } from './records/store-health.js';
import { buildServer } from './server/app.js';
import { StoreAuthError } from './store/errors.js';
import { missingScopes } from './store/setup/scopes.js';
import type { StoreSetup } from './store/setup/types.js';
import { startWorkersThread, type WorkersThreadData } from './workers-thread.js';

export interface ServiceOptions {
  logger: Logger;
  /** Start the HTTP server (webhooks, health). Default true. */
  http?: boolean;
  /** Start the queue workers and the reconciliation schedule. Default true. */
  workers?: boolean;
  /**
   * How long `close()` lets active jobs finish before it stops them (they run again later: every
   * job is safe to repeat). Keep it under the orchestrator's stop timeout. Default 20 s.
   */
  shutdownGraceMs?: number;
  /**
   * Run the queue workers in a thread of their own (workers-thread.ts), so that they never hold
   * up a webhook's answer: what `connector start` does when it runs both. Needs the logger's
   * format to give the thread's own logger. Default false (one thread).
   */
  workersThread?: { log: WorkersThreadData['log'] };
  /**
   * This service is the workers' thread of a process whose main thread started it: the main
   * thread reports the process's metrics and Redis's durability once for both.
   */
  isWorkersThread?: boolean;
  /** Called when the service cannot go on (its workers' thread ended): stop it and exit. */
  onFatal?: (reason: string) => void;
  /** BullMQ's job lock and stalled-job check; only tests change them (see WorkerOptions). */
  jobLock?: WorkerOptions['jobLock'];
  /** How often the schedulers are put back after Redis lost them; only tests change it. */
  scheduleRefreshMs?: number;
}

export interface RunningService {
  server: FastifyInstance | undefined;
  /** What /metrics serves; other parts add theirs with `metrics.registerGauge`. */
  metrics: ConnectorMetrics;
  /** The address the server listens on, e.g. http://127.0.0.1:3000. */
  url: string | undefined;
  close(): Promise<void>;
}

const SIX_HOURS_MS = 6 * 3_600_000;

/** How often a refused partner token is tried again, so a restored token resumes the queues. */
const AUTH_PROBE_INTERVAL_MS = 60_000;

/** How often each worker process puts the schedulers back, should Redis have lost them. */
const SCHEDULE_REFRESH_MS = 60_000;

/** The composition root: builds every part from the configuration and starts them. */
export async function startService(
  config: Config,
  options: ServiceOptions,
): Promise<RunningService> {
  const { logger } = options;
  const retrySpanMs = minimumRetrySpanMs(config.createJob.attempts, config.createJob.backoff);
  // Said where the workers run.
  if (retrySpanMs < SIX_HOURS_MS && options.workers !== false && !options.workersThread) {
    logger.warn(
      { retrySpanHours: +(retrySpanMs / 3_600_000).toFixed(1) },
      'CREATE_ATTEMPTS and CREATE_BACKOFF_* give up on a provider outage in under 6 hours',
    );
  }
  const prefix = config.redis.queuePrefix;
  logger.info(
    {
      shop: config.shopify.shop,
      partnerApiUrl: config.partner.apiUrl,
      queuePrefix: prefix,
      partnerRateLimit: `${config.partner.rateLimit} per ${config.partner.rateWindowMs} ms`,
      http: options.http !== false,
      workers: options.workers !== false && !options.workersThread,
      ...(options.workersThread && options.workers !== false ? { workersThread: true } : {}),
    },
    'connector starting',
  );

  // Health checks and the webhook's delivery marks fail fast when Redis is down, so a Redis
  // outage is a quick 503. Queues, records and workers wait for Redis to return instead: a BullMQ
  // queue whose first commands fail on a fail-fast connection stays broken until a restart.
  const requestRedis = createRedis(config.redis.url, 'client');
  const workerRedis = createRedis(config.redis.url, 'worker');
  requestRedis.on('error', (err) => logger.warn({ err }, 'redis (requests) connection error'));
  workerRedis.on('error', (err) => logger.warn({ err }, 'redis (workers) connection error'));
  // Warns only, and in the background: the intake answers 503 while Redis is down, and a
  // deliberately different Redis (a throwaway one for trials) still starts.
  if (!options.isWorkersThread) void warnAboutRedisDurability(workerRedis, logger).catch(() => {});

  // Before anything reads a record: they must belong to the configured partner environment.
  try {
    await claimEnvironment(config, workerRedis, logger);
  } catch (error) {
    requestRedis.disconnect();
    workerRedis.disconnect();
    throw error;
  }

  // Requests are counted per process; what lives in Redis is read at each scrape (below).
  const metrics = new ConnectorMetrics({
    logger,
    ...(options.isWorkersThread ? { processMetrics: false } : {}),
  });
  const requests = requestMetrics(metrics);
  const store = buildStoreClient(
    config.shopify,
    logger,
    new StoreHealth(workerRedis, prefix),
    requests.storeRequest,
    { redis: workerRedis, prefix },
  );
  // In the background: Shopify being slow must not hold up the intake. A workers' thread checks
  // for itself.
  if (!options.workersThread) void checkShopifyAccess(store, logger);
  const { partner } = buildPartnerSide(
    config.partner,
    workerRedis,
    logger,
    undefined,
    requests.partnerRequest,
  );
  const parts = buildSharedParts({ redis: workerRedis, prefix, settings: config, logger });

  const closers: (() => Promise<unknown>)[] = [() => parts.close()];
  let server: FastifyInstance | undefined;
  let url: string | undefined;

  if (options.workers !== false && options.workersThread) {
    const thread = await startWorkersThread(
      { config, log: options.workersThread.log, shutdownGraceMs: options.shutdownGraceMs },
      {
        logger,
        onUnexpectedExit: (reason) => {
          logger.fatal(`${reason}: the connector stops`);
          options.onFatal?.(reason);
        },
      },
    ).catch(async (error) => {
      await parts.close();
      requestRedis.disconnect();
      workerRedis.disconnect();
      throw error;
    });
    metrics.addRegistry({ name: 'workers_thread', read: () => thread.metrics() });
    closers.unshift(() => thread.close());
  } else if (options.workers !== false) {
    const workers = startWorkers(
      { ...parts, store, partner },
      {
        connection: workerRedis,
        concurrency: jobConcurrency(config.concurrency),
        ...(options.jobLock ? { jobLock: options.jobLock } : {}),
      },
    );
    const stopSchedules = await keepSchedules(parts, {
      intervalMs: options.scheduleRefreshMs ?? SCHEDULE_REFRESH_MS,
      logger,
    });

    // At start, one cheap request from the shared budget checks the token and the address: a
    // refusal (401) or a wrong PARTNER_API_URL (404) pauses the partner queues with that reason,
    // before any order meets it; a pause from earlier is lifted once they work. Then every minute
    // while they stay paused.
    await parts.authGuard
      .probe(partner, { always: true })
      .catch((err) => logger.warn({ err }, 'partner check at start failed'));
    const probe = () =>
      parts.authGuard.probe(partner).catch((err) => logger.warn({ err }, 'token probe failed'));
    const probeTimer = setInterval(probe, AUTH_PROBE_INTERVAL_MS);
    probeTimer.unref();

    closers.unshift(
      async () => clearInterval(probeTimer),
      async () => stopSchedules(),
      () => closeWorkers(workers, options.shutdownGraceMs ?? 20_000, logger),
    );
  }

  if (options.http !== false) {
    const budget = buildPartnerSide(config.partner, requestRedis, logger).budget;
    registerSharedMetrics(metrics, {
      parts,
      budget,
      limit: config.partner.rateLimit,
      tokenRefusedSince: () => tokenRefusedSince(requestRedis, prefix),
    });
    server = await buildServer({
      verify: buildWebhookVerifier(config.shopify),
      redis: requestRedis,
      prefix,
      counters: parts.counters,
      acceptDelivery: (event, deliveryId) => parts.acceptDelivery(event, deliveryId, requestRedis),
      budget,
      storeHealth: new StoreHealth(requestRedis, prefix),
      logger,
      // Every queue of the job catalog, its job schedulers included.
      board: { queues: Object.values(parts.queues), login: config.admin },
      metrics: { render: () => metrics.render(), token: config.metrics.token },
    });
    url = await server.listen({ port: config.server.port, host: config.server.host });
    logger.info({ url }, 'listening for Shopify webhooks');
    closers.unshift(() => server!.close());
  }

  return {
    server,
    url,
    metrics,
    async close() {
      for (const close of closers) await close();
      await Promise.allSettled([requestRedis.quit(), workerRedis.quit()]);
    },
  };
}

/**
 * Two cheap queries at start: `shop` proves the token works, and the app's granted scopes are
 * compared with what the connector needs. A refused token is named, with the variable to fix,
 * in the log and (through the store health record) in /status; a missing scope is named with
 * what needs it, before any order does.
 */
export async function checkShopifyAccess(
  store: Pick<StoreSetup, 'shopIdentity' | 'grantedScopes'>,
  logger: Logger,
): Promise<boolean> {
  try {
    const shop = await store.shopIdentity();
    logger.info({ shopName: shop.name }, 'Shopify accepts the access token');
    const missing = missingScopes(await store.grantedScopes());
    if (missing.length > 0) {
      logger.error(
        `The Shopify app lacks the access scopes ${missing.join(', ')}: add them to the app (README: "Setting up the Shopify side, step by step", or run \`connector setup\`), or the writes that need them will fail`,
      );
      return false;
    }
    return true;
  } catch (error) {
    if (error instanceof StoreAuthError) {
      logger.error(
        `Shopify refused the access token at start (${error.message}): check SHOPIFY_ACCESS_TOKEN (or SHOPIFY_CLIENT_ID and SHOPIFY_CLIENT_SECRET), SHOPIFY_SHOP and the app's scopes`,
      );
    } else {
      logger.warn({ err: error }, 'could not check Shopify access at start; orders will tell');
    }
    return false;
  }
}

/** Records the partner environment at the first start; refuses another one later (throws). */
async function claimEnvironment(config: Config, redis: Redis, logger: Logger): Promise<void> {
  const prefix = config.redis.queuePrefix;
  const claim = await claimPartnerEnvironment(redis, prefix, config.partner);
  if (claim.outcome !== 'claimed') return;
  logger.info(
    { prefix, partnerApiUrl: config.partner.apiUrl },
    'first start under this QUEUE_PREFIX: its records now belong to this partner environment',
  );
  if (claim.earlierRegistrations > 0) {
    logger.warn(
      { prefix, registered: claim.earlierRegistrations },
      `QUEUE_PREFIX=${prefix} holds registrations made before environments were recorded; they are taken to belong to ${config.partner.apiUrl}. If they were made with another environment (the sandbox), stop the connector and run \`connector environment forget --yes\``,
    );
  }
}
