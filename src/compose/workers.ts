import { type Job, MetricsTime, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../../config/index.js';
import { JOB_CATALOG, JOBS, type JobKey } from '../../jobs/catalog.js';
import type { JobContext } from '../../jobs/context.js';
import type { AnyJobDefinition } from '../../jobs/job-definition.js';
import { processorFor, unseenFailureRecorder } from '../../jobs/processor.js';
import type { Logger } from '../log.js';
import { retryDelayMs } from '../queue/backoff.js';
import type { SharedParts } from './parts.js';

export interface WorkerOptions {
  /** A connection for the workers' blocking commands; BullMQ duplicates it as needed. */
  connection: Redis;
  /** Jobs at a time per worker, where it differs from the job's own default. */
  concurrency?: Partial<Record<JobKey, number>>;
  /**
   * BullMQ's job lock and stalled-job check (default 30 s each). Only the reliability suite
   * shortens them, so that a killed worker's job runs again within seconds rather than a minute.
   */
  jobLock?: { durationMs: number; stalledIntervalMs: number };
}

/**
 * Times a job may be cut off mid-run (its worker crashed, was stopped past the shutdown grace, or
 * lost Redis for longer than the job's lock) and still go back to its queue; once more and BullMQ
 * fails it. Running any of our jobs again is safe (creates are keyed by reference, marks are
 * idempotent), so an interruption costs nothing, and BullMQ never resets the count, not even when
 * the job is replayed: BullMQ's default of 1 would fail a job that a deploy cut short once and a
 * crash hit later. A bound remains so that a job that kills its worker every time cannot take the
 * workers down for ever. A job that runs out fails through its `onGiveUp` like any other failure
 * (see `unseenFailureRecorder`). The process running the stalled-job check applies this: every
 * worker does, so they all must agree.
 */
export const MAX_STALLED_COUNT = 3;

/**
 * Jobs at a time per worker from the settings: creates, marks, and the sync's writes to Shopify.
 * The rest (schedules, rare flags) keep their own defaults.
 */
export function jobConcurrency(
  settings: Pick<Config, 'concurrency'>['concurrency'],
): Partial<Record<JobKey, number>> {
  return {
    createShipment: settings.create,
    markOrder: settings.mark,
    writeShipmentStatus: settings.syncWrite,
    reportShipmentProgress: settings.syncWrite,
    fulfilShipment: settings.syncWrite,
    recordDelivery: settings.syncWrite,
  };
}

/** Starts one worker for each job in the catalog. */
export function startWorkers(context: JobContext, options: WorkerOptions): Worker[] {
  const { logger } = context;
  const entries = Object.entries(JOB_CATALOG) as [JobKey, AnyJobDefinition][];
  return entries.map(([key, job]) => {
    const worker = new Worker(job.queue, processorFor(job, context), {
      connection: options.connection,
      prefix: context.prefix,
      concurrency: options.concurrency?.[key] ?? job.concurrency,
      // The partner budget, not BullMQ, decides the pace; this limiter only makes workers honour
      // `queue.rateLimit()` (BullMQ ignores the limiter key on workers without one).
      limiter: { max: 1_000_000, duration: 1_000 },
      maxStalledCount: MAX_STALLED_COUNT,
      ...(options.jobLock
        ? {
            lockDuration: options.jobLock.durationMs,
            stalledInterval: options.jobLock.stalledIntervalMs,
          }
        : {}),
      // BullMQ then counts completed and failed jobs in Redis (connector_jobs_total); a day of
      // per-minute points is kept beside the count.
      metrics: { maxDataPoints: 24 * MetricsTime.ONE_HOUR },
      settings: {
        backoffStrategy: (attemptsMade: number) =>
          retryDelayMs(attemptsMade, context.settings.createJob.backoff),
      },
    });
    // Without a listener, an 'error' event (Redis gone, say) would crash the process.
    worker.on('error', (err) => logger.error({ err, queue: job.queue }, 'worker error'));
    const recordUnseenFailure = unseenFailureRecorder(job, context);
    const settled = async (finished: Job): Promise<void> => {
      if (!job.afterSettled) return;
      const payload = job.payload.safeParse(finished.data);
      if (!payload.success) return;
      await job
        .afterSettled(context, payload.data)
        .catch((error: unknown) =>
          logger.error(
            { err: error, queue: job.queue, jobId: finished.id },
            'after-run step failed',
          ),
        );
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
        .catch((error) =>
          logger.error(
            { err: error, queue: job.queue, jobId: failed.id },
            'could not record a failure',
          ),
        )
        // A failure BullMQ retries is not the end of the job: its next attempt sees what came.
        .then(() => (failed.finishedOn ? settled(failed) : undefined));
    });
    worker.on('completed', (completed) => void settled(completed));
    return worker;
  });
}

/**
 * Creates or updates the scheduler of every scheduled job in the catalog (at start: the settings
 * may have changed). With `onlyMissing`, puts back only schedulers that are gone, and leaves the
 * others alone: processes with different settings (a rolling deploy) would otherwise take turns
 * changing the interval, and BullMQ runs a scheduler at once whenever its interval changes.
 */
export async function upsertSchedules(
  parts: SharedParts,
  options: { onlyMissing?: boolean } = {},
): Promise<void> {
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

/**
 * Upserts the schedulers now, then every `intervalMs` puts back any that are gone, until the
 * returned function is called. A Redis that loses its data (a restart without persistence, a
 * flush, a replacement instance) loses the schedulers with it, and reconciliation would stop
 * until the next restart.
 */
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
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
