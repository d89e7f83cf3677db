import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOB_CATALOG, JOBS, type JobKey } from '../../jobs/catalog.js';
import type { JobContext } from '../../jobs/context.js';
import type { AnyJobDefinition } from '../../jobs/job-definition.js';
import { processorFor } from '../../jobs/processor.js';
import type { Logger } from '../log.js';
import { retryDelayMs } from '../queue/backoff.js';
import type { SharedParts } from './parts.js';

export interface WorkerOptions {
  /** A connection for the workers' blocking commands; BullMQ duplicates it as needed. */
  connection: Redis;
  /** Jobs at a time per worker, where it differs from the job's own default. */
  concurrency?: Partial<Record<JobKey, number>>;
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
      settings: {
        backoffStrategy: (attemptsMade: number) =>
          retryDelayMs(attemptsMade, context.settings.createJob.backoff),
      },
    });
    // Without a listener, an 'error' event (Redis gone, say) would crash the process.
    worker.on('error', (err) => logger.error({ err, queue: job.queue }, 'worker error'));
    worker.on('failed', (failed, err) =>
      logger.warn(
        {
          queue: job.queue,
          jobId: failed?.id,
          attemptsMade: failed?.attemptsMade,
          reason: err.message,
        },
        'job failed',
      ),
    );
    return worker;
  });
}

/** Creates or updates the scheduler of every scheduled job in the catalog. */
export async function upsertSchedules(parts: SharedParts): Promise<void> {
  for (const job of JOBS) {
    if (!job.schedule) continue;
    await parts
      .queueOf(job)
      .upsertJobScheduler(
        job.schedule.id,
        { every: job.schedule.everyMs(parts.settings) },
        { name: job.queue, data: {} },
      );
  }
}

/**
 * Upserts the schedulers now, then again every `intervalMs`, until the returned function is
 * called. A Redis that loses its data (a restart without persistence, a flush, a replacement
 * instance) loses the schedulers with it, and reconciliation would stop until the next restart.
 * A repeated upsert changes nothing: BullMQ puts the pending run back in its own slot (or, when
 * it runs at that moment, adds the next one once), so no run is skipped or doubled.
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
    upsertSchedules(parts)
      .catch((err) => options.logger.warn({ err }, 'could not refresh the job schedulers'))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
