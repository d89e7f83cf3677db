import { Worker } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/index.js';
import { RECONCILE_SCHEDULER_ID, reconcileProcessor } from '../jobs/reconcile-orders/processor.js';
import type { Logger } from './log.js';
import { Counters } from './metrics/counters.js';
import { PartnerClient } from './partner/client.js';
import { minimumRetrySpanMs } from './queue/backoff.js';
import { closeWorkers } from './queue/close-workers.js';
import { Enqueuer } from './queue/enqueue.js';
import { QUEUES } from './queue/names.js';
import { PartnerAuthGuard } from './queue/partner-auth.js';
import { PartnerBudget } from './queue/partner-budget.js';
import { allQueues, createQueues, partnerQueues, workerOptions } from './queue/queues.js';
import { createRedis } from './queue/redis.js';
import { OrderRecords } from './records/order-records.js';
import { buildServer } from './server/app.js';
import { createStoreClient } from './store/admin-client.js';
import { startShipmentWorkers } from './workers.js';

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
}

export interface RunningService {
  server: FastifyInstance | undefined;
  /** The address the server listens on, e.g. http://127.0.0.1:3000. */
  url: string | undefined;
  close(): Promise<void>;
}

const SIX_HOURS_MS = 6 * 3_600_000;

/** How often a refused partner token is tried again, so a restored token resumes the queues. */
const AUTH_PROBE_INTERVAL_MS = 60_000;

/** The composition root: builds every part from the configuration and starts them. */
export async function startService(
  config: Config,
  options: ServiceOptions,
): Promise<RunningService> {
  const { logger } = options;
  const retrySpanMs = minimumRetrySpanMs(config.createJob.attempts, config.createJob.backoff);
  if (retrySpanMs < SIX_HOURS_MS) {
    logger.warn(
      { retrySpanHours: +(retrySpanMs / 3_600_000).toFixed(1) },
      'CREATE_ATTEMPTS and CREATE_BACKOFF_* give up on a provider outage in under 6 hours',
    );
  }
  const prefix = config.redis.queuePrefix;

  // Request paths fail fast when Redis is down; workers wait for it to return.
  const requestRedis = createRedis(config.redis.url, 'client');
  const workerRedis = createRedis(config.redis.url, 'worker');
  requestRedis.on('error', (err) => logger.warn({ err }, 'redis (requests) connection error'));
  workerRedis.on('error', (err) => logger.warn({ err }, 'redis (workers) connection error'));

  const store = createStoreClient({
    shop: config.shopify.shop,
    auth: config.shopify.auth,
    apiVersion: config.shopify.apiVersion,
    adminApiUrl: config.shopify.adminApiUrl,
    webhookSecret: config.shopify.webhookSecret,
    logger,
  });

  const budget = new PartnerBudget(workerRedis, {
    token: config.partner.token,
    limit: config.partner.rateLimit,
    windowMs: config.partner.rateWindowMs,
    syncReserve: config.partner.syncReserve,
  });
  const partner = new PartnerClient({
    baseUrl: config.partner.apiUrl,
    token: config.partner.token,
    timeoutMs: config.partner.timeoutMs,
    retryAfterDefaultMs: config.partner.retryAfterDefaultMs,
    gate: budget,
    logger: logger.child({ module: 'partner' }),
  });

  const closers: (() => Promise<unknown>)[] = [];
  let server: FastifyInstance | undefined;
  let url: string | undefined;

  if (options.workers !== false) {
    const queues = createQueues(workerRedis, prefix, config.createJob, logger);
    const records = new OrderRecords(workerRedis, prefix);
    const counters = new Counters(workerRedis, prefix);
    const enqueuer = new Enqueuer(queues, records, logger);
    const authGuard = new PartnerAuthGuard(workerRedis, prefix, partnerQueues(queues), logger);
    const cancellation = {
      records,
      counters,
      storeUpdate: enqueuer.storeUpdate.bind(enqueuer),
      logger,
    };

    const workers = startShipmentWorkers({
      config,
      connection: workerRedis,
      prefix,
      queues,
      store,
      partner,
      records,
      counters,
      enqueuer,
      authGuard,
      logger,
    });
    const reconcile = new Worker(
      QUEUES.reconcileOrders,
      reconcileProcessor({
        ...cancellation,
        enqueuer,
        store,
        eligibility: config.eligibility,
        redis: workerRedis,
        prefix,
        pollIntervalMs: config.intake.pollIntervalMs,
        overlapMs: config.intake.pollOverlapMs,
        logger: logger.child({ module: 'reconcile' }),
      }),
      workerOptions(workerRedis, prefix, config.createJob, 1),
    );
    reconcile.on('error', (err) => logger.error({ err }, 'reconcile worker error'));
    // A failed pass keeps the watermark and is retried by the next one; say why it failed.
    // The message only (StoreError messages carry no customer data), not the stack.
    reconcile.on('failed', (job, err) =>
      logger.error(
        { queue: reconcile.name, jobId: job?.id, error: err.name, reason: err.message },
        'reconciliation pass failed',
      ),
    );
    await queues.reconcileOrders.upsertJobScheduler(
      RECONCILE_SCHEDULER_ID,
      { every: config.intake.pollIntervalMs },
      { name: 'reconcile-orders', data: {} },
    );

    // A token refused earlier may work now (a new one configured): try it once at start, then
    // every minute while it stays refused.
    const probe = () =>
      authGuard.probe(partner).catch((err) => logger.warn({ err }, 'token probe failed'));
    await probe();
    const probeTimer = setInterval(probe, AUTH_PROBE_INTERVAL_MS);
    probeTimer.unref();

    closers.push(
      async () => clearInterval(probeTimer),
      () => closeWorkers([...workers, reconcile], options.shutdownGraceMs ?? 20_000, logger),
      () => Promise.all(allQueues(queues).map((q) => q.close())),
    );
  }

  if (options.http !== false) {
    // The intake's own parts, on the fail-fast connection, so a Redis outage answers 503 quickly.
    const queues = createQueues(requestRedis, prefix, config.createJob, logger);
    const records = new OrderRecords(requestRedis, prefix);
    const counters = new Counters(requestRedis, prefix);
    const enqueuer = new Enqueuer(queues, records, logger);
    const authGuard = new PartnerAuthGuard(requestRedis, prefix, partnerQueues(queues), logger);
    server = await buildServer({
      verify: (rawBody, headers) => store.verifyWebhook(rawBody, headers),
      redis: requestRedis,
      prefix,
      records,
      counters,
      enqueuer,
      storeUpdate: enqueuer.storeUpdate.bind(enqueuer),
      authGuard,
      logger,
    });
    url = await server.listen({ port: config.server.port, host: config.server.host });
    logger.info({ url }, 'listening for Shopify webhooks');
    closers.unshift(
      () => server!.close(),
      () => Promise.all(allQueues(queues).map((q) => q.close())),
    );
  }

  return {
    server,
    url,
    async close() {
      for (const close of closers) await close();
      await Promise.allSettled([requestRedis.quit(), workerRedis.quit()]);
    },
  };
}
