import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../../config/index.js';
import { JOBS } from '../../jobs/catalog.js';
import { statusVersion } from '../../jobs/shipment-updates/follow-ups.js';
import type { Logger } from '../log.js';
import { readPartnerPause } from '../partner/auth-guard.js';
import { PartnerNotFoundError } from '../partner/errors.js';
import { scanKeys } from '../queue/redis.js';
import { readEvictionPause } from '../queue/redis-durability.js';
import { listStaffActions } from '../records/audit-trail.js';
import { OrderRecords } from '../records/order-records.js';
import { OrderTimeline, TIMELINE_LIMIT } from '../records/order-timeline.js';
import { ShipmentTracking } from '../records/shipment-tracking.js';
import { buildPartnerSide } from './clients.js';
import { assembleTimeline, type JobRun } from './order-timeline.js';

export type StoredOrderStatus = Awaited<ReturnType<typeof readStoredOrderStatus>>;

/** Writes nothing. Every job id holds the order id; a job counts only when its payload names it. */
export async function readStoredOrderStatus(redis: Redis, prefix: string, orderId: string) {
  const queues = JOBS.map((job) => ({
    job,
    queue: new Queue(job.queue, { connection: redis, prefix }),
  }));
  try {
    const tracking = new ShipmentTracking(redis, prefix, { lookbackDays: 1 });
    const runs: JobRun[] = [];
    for (const { queue } of queues) runs.push(...(await orderJobsIn(redis, queue, orderId)));
    runs.sort((a, b) => a.id.localeCompare(b.id));
    const partnerQueues = queues.filter(({ job }) => job.callsPartner).map(({ queue }) => queue);
    const paused: string[] = [];
    for (const queue of partnerQueues) if (await queue.isPaused()) paused.push(queue.name);
    const pause = await readPartnerPause(redis, prefix);
    return {
      orderId,
      record: await OrderRecords.reader(redis, prefix).get(orderId),
      shipment: await trackedShipment(tracking, orderId),
      jobs: runs.map(({ addedAt, processedAt, finishedAt, outcome, logs, ...job }) => ({
        ...job,
        ...(finishedAt ? { finishedAt: new Date(finishedAt).toISOString() } : {}),
      })),
      timeline: assembleTimeline({
        stored: await new OrderTimeline(redis, prefix).read(orderId),
        jobs: runs,
        staffActions: await listStaffActions(redis, prefix, { orderId, limit: TIMELINE_LIMIT }),
      }),
      partnerQueues: {
        queues: partnerQueues.map((queue) => queue.name),
        paused,
        tokenRefusedSince: pause?.reason === 'token_refused' ? pause.since : null,
        pause,
      },
      evictionPause: await readEvictionPause(redis, prefix),
    };
  } finally {
    await Promise.all(queues.map(({ queue }) => queue.close()));
  }
}

async function trackedShipment(tracking: ShipmentTracking, reference: string) {
  const shipment = await tracking.get(reference);
  if (!shipment) return null;
  const label = (await tracking.labels())[shipment.status];
  return {
    ...shipment,
    ...(label ? { statusLabel: label } : {}),
    newestStatusWritten: shipment.writtenStatus === statusVersion(shipment),
  };
}

async function orderJobsIn(redis: Redis, queue: Queue, orderId: string): Promise<JobRun[]> {
  const keyStart = queue.toKey('');
  const ids = new Set<string>();
  // Digits only: no escaping needed.
  for await (const keys of scanKeys(redis, `${keyStart}*${orderId}*`)) {
    for (const key of keys) {
      const id = key.slice(keyStart.length);
      // A job's own hash, not its logs, lock or dependencies.
      if (!id.includes(':')) ids.add(id);
    }
  }
  const jobs: JobRun[] = [];
  for (const id of ids) {
    const job = await queue.getJob(id);
    // The sync's writes name the order as the shipment's reference.
    if (!job || (job.data?.orderId ?? job.data?.reference) !== orderId) continue;
    const outcome = job.returnvalue?.outcome;
    jobs.push({
      queue: queue.name,
      id,
      state: await job.getState(),
      attemptsMade: job.attemptsMade,
      addedAt: job.timestamp,
      ...(job.processedOn ? { processedAt: job.processedOn } : {}),
      ...(job.finishedOn ? { finishedAt: job.finishedOn } : {}),
      ...(typeof outcome === 'string' ? { outcome } : {}),
      ...(job.failedReason ? { failedReason: job.failedReason } : {}),
      logs: (await queue.getJobLogs(id)).logs,
    });
  }
  return jobs;
}

export type LiveShipment = Awaited<ReturnType<typeof askProviderForShipment>>;

export async function askProviderForShipment(
  settings: Config['partner'],
  redis: Redis,
  logger: Logger,
  reference: string,
) {
  const { partner } = buildPartnerSide(settings, redis, logger);
  try {
    const shipment = await partner.getShipment(reference);
    return {
      found: true as const,
      orderNumber: shipment.order_number,
      status: shipment.status,
      statusLabel: shipment.status_label,
      carrier: shipment.carrier,
      trackingNumber: shipment.tracking_number,
      updatedAt: shipment.updated_at,
    };
  } catch (error) {
    if (error instanceof PartnerNotFoundError) return { found: false as const };
    throw error;
  }
}
