import { type Job, MetricsTime, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../../config/index.js';
import { JOB_CATALOG, JOBS, type JobKey } from '../../jobs/catalog.js';
import type { JobContext } from '../../jobs/context.js';
import type { AnyJobDefinition } from '../../jobs/job-definition.js';
import { processorFor, unseenFailureRecorder } from '../../jobs/processor.js';
import type { Logger } from '../log.js';
import { retryDelayMs } from '../queue/backoff.js';
import { withStorePriority } from '../store/index.js';
import type { SharedParts } from './parts.js';

export interface WorkerOptions {
  /** BullMQ duplicates it as needed. */
  connection: Redis;
  concurrency?: Partial<Record<JobKey, number>>;
  /** Default 30 s each; the reliability suite shortens them. */
  jobLock?: { durationMs: number; stalledIntervalMs: number };
}

/**
 * BullMQ never resets the stalled count, so its default of 1 would fail a job cut short by a
 * deploy and later a crash. Safe only because every job is safe to run again; the bound stops a
 * job that kills its worker every time. Every worker runs the stalled check, so all must agree.
 */
export const MAX_STALLED_COUNT = 3;

export function jobConcurrency(settings: Config['concurrency']) {
  return {
    createShipment: settings.create,
    markOrder: settings.mark,
    writeShipmentStatus: settings.syncWrite,
    reportShipmentProgress: settings.syncWrite,
    fulfilShipment: settings.syncWrite,
    recordDelivery: settings.syncWrite,
  } satisfies Partial<Record<JobKey, number>>;
}

export function startWorkers(context: JobContext, options: WorkerOptions): Worker[] {
  const { logger } = context;
  return (Object.entries(JOB_CATALOG) as [JobKey, AnyJobDefinition][]).map(([key, job]) => {
    const processor = processorFor(job, context);
    const worker = new Worker(
      job.queue,
      (run: Job) => withStorePriority(job.storePriority ?? 'registration', () => processor(run)),
      {
        connection: options.connection,
        prefix: context.prefix,
        concurrency: options.concurrency?.[key] ?? job.concurrency,
        // Only so workers honour `queue.rateLimit()`: BullMQ ignores it without a limiter.
        limiter: { max: 1_000_000, duration: 1_000 },
        maxStalledCount: MAX_STALLED_COUNT,
        ...(options.jobLock
          ? {
              lockDuration: options.jobLock.durationMs,
              stalledInterval: options.jobLock.stalledIntervalMs,
            }
          : {}),
        // For connector_jobs_total.
        metrics: { maxDataPoints: 24 * MetricsTime.ONE_HOUR },
        settings: {
          backoffStrategy: (attemptsMade: number) =>
            retryDelayMs(attemptsMade, context.settings.createJob.backoff),
        },
      },
    );
    // Without a listener, an 'error' event (Redis gone, say) would crash the process.
    worker.on('error', (err) => logger.error({ err, queue: job.queue }, 'worker error'));
    const recordUnseenFailure = unseenFailureRecorder(job, context);
    const logError = (message: string, jobId: string | undefined) => (err: unknown) =>
      logger.error({ err, queue: job.queue, jobId }, message);
    const settled = async (finished: Job): Promise<void> => {
      if (!job.afterSettled) return;
      const payload = job.payload.safeParse(finished.data);
      if (!payload.success) return;
      await job
        .afterSettled(context, payload.data)
        .catch(logError('after-run step failed', finished.id));
    };
    worker.on('failed', (failed, err) => {
      logger.warn(
        {
          queue: job.queue,
          jobId: failed?.id,
          attemptsMade: failed?.attemptsMade,
          reason: err.message,
        },
        'job failed',
      );
      if (!failed) return;
      recordUnseenFailure(failed, err)
        .catch(logError('could not record a failure', failed.id))
        // A failure BullMQ retries is not the end of the job.
        .then(() => (failed.finishedOn ? settled(failed) : undefined));
    });
    worker.on('completed', (completed) => void settled(completed));
    return worker;
  });
}

/**
 * `onlyMissing`: in a rolling deploy processes would take turns, and BullMQ runs a scheduler at
 * once when its interval changes.
 */
export async function upsertSchedules(parts: SharedParts, options: { onlyMissing?: boolean } = {}) {
  for (const job of JOBS) {
    if (!job.schedule) continue;
    const queue = parts.queueOf(job);
    if (options.onlyMissing && (await queue.getJobScheduler(job.schedule.id))) continue;
    await queue.upsertJobScheduler(
      job.schedule.id,
      { every: job.schedule.everyMs(parts.settings) },
      { name: job.queue, data: {} },
    );
  }
}

/** A Redis that loses its data loses the schedulers, and reconciliation would stop with them. */
export async function keepSchedules(
  parts: SharedParts,
  options: { intervalMs: number; logger: Logger },
): Promise<() => void> {
  await upsertSchedules(parts);
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    upsertSchedules(parts, { onlyMissing: true })
      .catch((err) => options.logger.warn({ err }, 'could not restore the job schedulers'))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs).unref();
  return () => clearInterval(timer);
}
