import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOB_CATALOG, JOBS, type JobKey } from '../../jobs/catalog.js';
import type { QueueContext } from '../../jobs/context.js';
import { acceptOrderEvent } from '../../jobs/create-shipment/accept-order-event.js';
import { acceptWebhook } from '../../jobs/create-shipment/accept-webhook.js';
import { enqueueOrder } from '../../jobs/create-shipment/enqueue.js';
import type { JobDefinition } from '../../jobs/job-definition.js';
import { enqueueMarkOrder } from '../../jobs/mark-order/enqueue.js';
import type { MarkOrder } from '../../jobs/mark-order/payload.js';
import type { OrderEvent } from '../domain/order-lifecycle.js';
import { Counters } from '../metrics/counters.js';
import { PartnerAuthGuard } from '../partner/auth-guard.js';
import { OrderRecords } from '../records/order-records.js';
import { OrderTimeline } from '../records/order-timeline.js';
import { ShipmentTracking } from '../records/shipment-tracking.js';

export { CREATE_SHIPMENT_QUEUE, orderJobId } from '../../jobs/create-shipment/payload.js';

export type SharedParts = ReturnType<typeof buildSharedParts>;

/** So the service, CLI, demo and tests see the same queues, options and keys. */
export function buildSharedParts(
  options: Pick<QueueContext, 'redis' | 'prefix' | 'settings' | 'logger'>,
) {
  const { redis, prefix, settings, logger } = options;
  const byName = new Map<string, Queue>();
  for (const job of JOBS) {
    const queue = new Queue(job.queue, {
      connection: redis,
      prefix,
      defaultJobOptions: job.options(settings),
    });
    // Else every failed reconnect prints a raw stack trace.
    queue.on('error', (err) => logger.warn({ err, queue: job.queue }, 'queue connection error'));
    byName.set(job.queue, queue);
  }
  const queueOf = (job: Pick<JobDefinition, 'queue'>): Queue => {
    const queue = byName.get(job.queue);
    if (!queue) throw new Error(`No queue "${job.queue}": the job is not in jobs/catalog.ts`);
    return queue;
  };
  const queues = Object.fromEntries(
    Object.entries(JOB_CATALOG).map(([key, job]) => [key, queueOf(job)]),
  ) as Record<JobKey, Queue>;
  const partnerQueues = JOBS.filter((job) => job.callsPartner).map(queueOf);

  const context: QueueContext = {
    prefix,
    redis,
    settings,
    logger,
    records: new OrderRecords(redis, prefix, settings.records),
    tracking: new ShipmentTracking(redis, prefix, settings.sync),
    timeline: new OrderTimeline(redis, prefix),
    counters: new Counters(redis, prefix),
    authGuard: new PartnerAuthGuard(redis, prefix, partnerQueues, logger),
    queueOf,
  };
  return {
    ...context,
    queues,
    /** `client`: fail-fast. */
    acceptWebhook: (
      event: OrderEvent,
      delivery: Parameters<typeof acceptWebhook>[1],
      client: Redis = redis,
    ) => acceptWebhook(event, delivery, { ...context, redis: client }),
    acceptOrderEvent: (event: OrderEvent) => acceptOrderEvent(event, context),
    enqueueOrder: (orderId: string, source: string) => enqueueOrder(context, orderId, source),
    markOrder: ((orderId, kind) => enqueueMarkOrder(context, orderId, kind)) satisfies MarkOrder,
    /** The connection is the caller's. */
    async close() {
      await Promise.all([...byName.values()].map((queue) => queue.close()));
    },
  };
}
