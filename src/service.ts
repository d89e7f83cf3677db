import type { Redis } from 'ioredis';
import { adminSurfaceProblems, type Config, ConfigError } from '../config/index.js';
import { buildSharedParts } from './compose/parts.js';
import { shipmentReader } from './compose/shipment-reader.js';
import type { WorkerSideOptions } from './compose/worker-side.js';
import type { Logger } from './log.js';
import { ConnectorMetrics } from './metrics/registry.js';
import { requestMetrics } from './metrics/request-metrics.js';
import { minimumRetrySpanMs } from './queue/backoff.js';
import { createRedis } from './queue/redis.js';
import { refuseEvictingRedis, warnAboutRedisDurability } from './queue/redis-durability.js';
import { claimPartnerEnvironment } from './records/partner-environment.js';
import { startWorkersThread, type WorkersThreadData } from './workers-thread.js';

export interface ServiceOptions
  extends Pick<
    WorkerSideOptions,
    'logger' | 'shutdownGraceMs' | 'jobLock' | 'scheduleRefreshMs' | 'evictionCheckMs'
  > {
  /** Default true. */
  http?: boolean;
  /** Default true. */
  workers?: boolean;
  /** So that the workers never hold up a webhook's answer. Default: one thread. */
  workersThread?: { log: WorkersThreadData['log'] };
  /** The main thread reports the process's metrics and Redis's durability once for both. */
  isWorkersThread?: boolean;
  /** The workers' thread ended: stop the service and exit. */
  onFatal?: (reason: string) => void;
}

export type RunningService = Awaited<ReturnType<typeof startService>>;

const SIX_HOURS_MS = 6 * 3_600_000;

/** Each side is imported only where it runs, so each thread loads what it needs. */
export async function startService(config: Config, options: ServiceOptions) {
  const { logger, http = true, workers = true, workersThread, isWorkersThread } = options;
  if (http) {
    const problems = adminSurfaceProblems(config);
    if (problems.length > 0) throw new ConfigError(problems);
  }
  const runsWorkers = workers && !workersThread;
  // Both sides start loading now, while Redis connects.
  const workerSide = runsWorkers ? import('./compose/worker-side.js') : undefined;
  const httpSide = http ? import('./compose/http-side.js') : undefined;
  const retrySpanMs = minimumRetrySpanMs(config.createJob.attempts, config.createJob.backoff);
  // Said once, by the process or thread that runs the workers.
  if (retrySpanMs < SIX_HOURS_MS && runsWorkers) {
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
      http,
      workers: runsWorkers,
      ...(workersThread && workers ? { workersThread: true } : {}),
    },
    'connector starting',
  );

  // Requests fail fast (a quick 503); the rest waits for Redis: a BullMQ queue whose first
  // commands fail stays broken until a restart.
  const requestRedis = createRedis(config.redis.url, 'client');
  const workerRedis = createRedis(config.redis.url, 'worker');
  requestRedis.on('error', (err) => logger.warn({ err }, 'redis (requests) connection error'));
  workerRedis.on('error', (err) => logger.warn({ err }, 'redis (workers) connection error'));
  const disconnect = () => {
    requestRedis.disconnect();
    workerRedis.disconnect();
  };
  // Warns only: a throwaway Redis for trials still starts.
  if (!isWorkersThread) void warnAboutRedisDurability(workerRedis, logger).catch(() => {});

  // Before anything reads a record: records must belong to this partner environment, and workers
  // refuse a Redis that may evict their keys.
  try {
    if (workers && !isWorkersThread) {
      await refuseEvictingRedis(workerRedis, logger, config.redis.allowEviction);
    }
    await claimEnvironment(config, workerRedis, logger);
  } catch (error) {
    disconnect();
    throw error;
  }

  const metrics = new ConnectorMetrics({ logger, processMetrics: !isWorkersThread });
  const requests = requestMetrics(metrics);
  const parts = buildSharedParts({ redis: workerRedis, prefix, settings: config, logger });

  let workersRunning: { close(): Promise<void> } | undefined;
  if (workers && workersThread) {
    const thread = await startWorkersThread(
      { config, log: workersThread.log, shutdownGraceMs: options.shutdownGraceMs },
      options,
    ).catch(async (error) => {
      await parts.close();
      disconnect();
      throw error;
    });
    metrics.addRegistry({ name: 'workers_thread', read: () => thread.metrics() });
    workersRunning = thread;
  } else if (workerSide) {
    workersRunning = await (await workerSide).startWorkerSide(config, {
      ...options,
      parts,
      redis: workerRedis,
      requests,
    });
  }

  const { server, url } = httpSide
    ? await (await httpSide).startHttpSide(config, {
        parts,
        redis: requestRedis,
        metrics,
        logger,
      })
    : {};

  return {
    server,
    url,
    metrics,
    async close() {
      await server?.close();
      await workersRunning?.close();
      await parts.close();
      await Promise.allSettled([requestRedis.quit(), workerRedis.quit()]);
    },
  };
}

/** Throws when the records belong to another partner environment. */
async function claimEnvironment(config: Config, redis: Redis, logger: Logger): Promise<void> {
  const prefix = config.redis.queuePrefix;
  const claim = await claimPartnerEnvironment(
    redis,
    prefix,
    config.partner,
    new Date(),
    shipmentReader(config.partner, redis, logger),
  );
  if (claim.outcome === 'token_adopted') {
    logger.info(
      { prefix, partnerApiUrl: config.partner.apiUrl, checkedReference: claim.checkedReference },
      claim.checkedReference
        ? `new partner token: it reads shipment ${claim.checkedReference}, registered with the old one, so it is the same account; its records stay and the new token is adopted`
        : 'new partner token for the same address, and no shipment registered yet under this QUEUE_PREFIX: the new token is adopted',
    );
    return;
  }
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
