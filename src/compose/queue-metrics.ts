import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOB_CATALOG, JOBS } from '../../jobs/catalog.js';
import { SHIPMENT_UPDATES } from '../../jobs/shipment-updates/updates.js';
import type { ConnectorMetrics, Sample } from '../metrics/registry.js';
import { SYNC_LAG } from '../metrics/sync-lag.js';
import type { SharedParts } from './parts.js';

const SHARED = 'Shared by all processes (read from Redis).';

const STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/** A registration job that has not run to its end yet: the order waits. */
const WAITING = ['waiting', 'prioritized', 'delayed'] as const;

const OLDEST_SCAN_LIMIT = 10_000;

/** A scrape is costly in Redis commands: `cacheMs` reads each metric at most once per period. */
export function registerQueueMetrics(
  metrics: ConnectorMetrics,
  parts: Pick<SharedParts, 'queueOf' | 'redis' | 'records'>,
  options: { cacheMs?: number; now?: () => number } = {},
): void {
  const now = options.now ?? Date.now;
  const shared = (read: () => Promise<number | Sample[]>) =>
    sharedReading(read, options.cacheMs ?? 0, now);
  const queues = JOBS.map((job) => parts.queueOf(job));
  const perQueue = (read: (queue: Queue) => Promise<Sample[]>) =>
    shared(async () => (await Promise.all(queues.map(read))).flat());
  // None waiting is an age of 0.
  const ageSeconds = (since = Number.POSITIVE_INFINITY) => Math.max(0, (now() - since) / 1000);

  metrics.registerGauge({
    name: 'connector_queue_jobs',
    help: `Jobs in each queue now, by state: waiting, active (running), delayed (a retry's backoff, or waiting for the partner budget), failed (failed for good and kept; replayable). ${SHARED}`,
    labelNames: ['queue', 'state'],
    read: perQueue(async (queue) => {
      const counts = await queue.getJobCounts(...STATES);
      return STATES.map((state) => ({
        labels: { queue: queue.name, state },
        value: counts[state] ?? 0,
      }));
    }),
  });
  metrics.registerGauge({
    name: 'connector_queue_paused',
    help: `1 while a queue is paused (the partner's queues pause together while the provider refuses the token; an admin may pause one in Bull Board), else 0. ${SHARED}`,
    labelNames: ['queue'],
    read: perQueue(async (queue) => [
      { labels: { queue: queue.name }, value: (await queue.isPaused()) ? 1 : 0 },
    ]),
  });
  metrics.registerCounter({
    name: 'connector_jobs_total',
    help: `Jobs that ended, by queue and outcome: completed, or failed (for good: refused, or after the last attempt). Counted by BullMQ in Redis since the workers began recording. ${SHARED}`,
    labelNames: ['queue', 'outcome'],
    read: perQueue((queue) =>
      Promise.all(
        (['completed', 'failed'] as const).map(async (outcome) => ({
          labels: { queue: queue.name, outcome },
          value: (await queue.getMetrics(outcome, 0, 0)).meta.count,
        })),
      ),
    ),
  });

  const registration = parts.queueOf(JOB_CATALOG.createShipment);
  metrics.registerGauge({
    name: 'connector_orders_waiting',
    help: `Orders waiting to be registered at the provider: create-shipment jobs waiting or delayed (retrying, or held back by the partner budget or a paused queue). ${SHARED}`,
    read: shared(() => registration.getJobCountByTypes(...WAITING)),
  });
  metrics.registerGauge({
    name: 'connector_orders_waiting_oldest_age_seconds',
    help: `Seconds since the oldest order waiting to be registered was queued (0 when none waits). ${SHARED}`,
    read: shared(async () => ageSeconds(await oldestQueuedAt([registration], parts.redis))),
  });

  metrics.registerGauge({
    name: 'connector_orders_held_oldest_age_seconds',
    help: `Seconds since the oldest order waiting on Shopify (on hold, scheduled, not yet fulfillable by the app) began to wait (one on schedules alone: since its first fulfillAt); 0 when none waits. Past 7 days connector drift lists it. ${SHARED}`,
    read: shared(async () => ageSeconds((await parts.records.oldestWaitingSince())?.getTime())),
  });

  // A job waiting in one of these is a provider change not yet in Shopify.
  const updateQueues = Object.values(SHIPMENT_UPDATES).map((update) => parts.queueOf(update));
  metrics.registerGauge({
    ...SYNC_LAG,
    read: shared(async () => ageSeconds(await oldestQueuedAt(updateQueues, parts.redis))),
  });

  const failedIn = (queues: Queue[]) =>
    Promise.all(queues.map((queue) => queue.getFailedCount())).then((all) =>
      all.reduce((sum, count) => sum + count, 0),
    );
  const isFulfil = (queue: Queue) => queue.name === JOB_CATALOG.fulfilShipment.queue;
  metrics.registerGauge({
    name: 'connector_orders_needing_attention',
    help: `Orders whose failure waits for staff, by reason: registration_failed (a failed create-shipment job: refused, or given up on; the order is tagged shipment-error), mark_failed (a failed mark on the Shopify order, retried on a schedule unless Shopify refused it), fulfilment_failed (a shipped order not fulfilled in Shopify: on hold, scheduled, or refused; tagged shipment-not-fulfilled when held), shopify_update_failed (another write of the status sync that failed). Failed jobs are kept 30 days. ${SHARED}`,
    labelNames: ['reason'],
    read: shared(() =>
      Promise.all(
        Object.entries({
          registration_failed: [registration],
          mark_failed: [parts.queueOf(JOB_CATALOG.markOrder)],
          fulfilment_failed: updateQueues.filter(isFulfil),
          shopify_update_failed: updateQueues.filter((queue) => !isFulfil(queue)),
        }).map(async ([reason, queues]) => ({ labels: { reason }, value: await failedIn(queues) })),
      ),
    ),
  });
}

/** A failed reading is not kept. */
function sharedReading<T>(read: () => Promise<T>, ttlMs: number, now: () => number) {
  if (ttlMs <= 0) return read;
  let running: Promise<T> | undefined;
  let kept: { until: number; value: T } | undefined;
  return (): Promise<T> => {
    if (running) return running;
    if (kept && now() < kept.until) return Promise.resolve(kept.value);
    running = read()
      .then((value) => {
        kept = { until: now() + ttlMs, value };
        return value;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
}

/** Of the jobs waiting in any of `queues`; undefined when none waits. */
async function oldestQueuedAt(queues: Queue[], redis: Redis): Promise<number | undefined> {
  const times = await Promise.all(
    queues.map(async (queue) => {
      const ids = await queue.getRanges([...WAITING], 0, OLDEST_SCAN_LIMIT - 1, true);
      if (ids.length === 0) return [];
      const pipeline = redis.pipeline();
      for (const id of ids) pipeline.hget(queue.toKey(id), 'timestamp');
      return ((await pipeline.exec()) ?? []).map(([error, value]) => (error ? 0 : Number(value)));
    }),
  );
  const known = times.flat().filter((at) => Number.isFinite(at) && at > 0);
  return known.length === 0 ? undefined : known.reduce((a, b) => Math.min(a, b));
}
