import type { Queue } from 'bullmq';
import { z } from 'zod';
import type { Logger } from '../../src/log.js';
import type { Counters } from '../../src/metrics/counters.js';
import { allFailedJobs, retryFailedJob } from '../../src/queue/failed-jobs.js';

/**
 * The reason BullMQ gives a job it failed for being cut off mid-run more often than the workers'
 * `maxStalledCount` allows (moveStalledJobsToWait, applied by the next worker that takes it).
 */
export const STALLED_TOO_OFTEN = 'job stalled more than allowable limit';

/** How interrupted jobs are retried: a growing wait, and how often. */
export interface InterruptedRetryLimits {
  /** Wait after the failure; doubles after each retry that was interrupted again. */
  firstDelayMs: number;
  /** Retries of one job before the schedule leaves it to staff. */
  maxRetries: number;
  /** Jobs retried in one pass at most (oldest failure first). */
  perPass: number;
}

/** Ten minutes, then 20 and 40: long enough apart that only a job that kills its worker runs out. */
export function interruptedRetryLimits(firstDelayMs: number): InterruptedRetryLimits {
  return { firstDelayMs, maxRetries: 3, perPass: 100 };
}

/**
 * Kept in the job's data beside its payload (the board shows it): how often this schedule retried
 * it. The processors' payload parse drops the field.
 */
export const interruptedRetryState = z.object({
  interruptedRetries: z.number().int().nonnegative().catch(0),
});

/** What a staff replay writes: the job starts afresh, with this schedule's retries all left. */
export const FRESH_INTERRUPTED_RETRIES = { interruptedRetries: 0 } as const;

export interface InterruptedJobsSummary {
  /** Jobs BullMQ failed for interruptions when the pass began. */
  interrupted: number;
  retried: number;
  /** Waiting for their next retry (or for the next pass). */
  notYetDue: number;
  /** Retried `maxRetries` times already: left to staff. */
  exhausted: number;
}

export interface RetryInterruptedJobsDeps {
  /** The queues whose interrupted jobs are retried. */
  queues: Queue[];
  counters: Counters;
  logger: Logger;
  limits: InterruptedRetryLimits;
}

export function interruptedRetryDelayMs(
  retriesSoFar: number,
  limits: InterruptedRetryLimits,
): number {
  return limits.firstDelayMs * 2 ** retriesSoFar;
}

/**
 * One pass over the jobs BullMQ failed because their workers kept dying under them: each is run
 * again once its wait is over. Every job of ours is safe to run again (creates are keyed by the
 * order's reference, Shopify writes check what is there), and a crash or a deploy that hits the
 * same job four times is not a reason to leave an order unshipped; a job that kills its worker
 * every time runs out of retries and stays failed for staff. Jobs that failed for any other reason
 * are left alone: each job's own attempts and failure policy have dealt with those.
 */
export async function retryInterruptedJobs(
  deps: RetryInterruptedJobsDeps,
  now: number = Date.now(),
): Promise<InterruptedJobsSummary> {
  const { limits } = deps;
  const summary: InterruptedJobsSummary = {
    interrupted: 0,
    retried: 0,
    notYetDue: 0,
    exhausted: 0,
  };
  for (const queue of deps.queues) {
    const interrupted = (await allFailedJobs(queue)).filter(
      (job) => job.failedReason === STALLED_TOO_OFTEN,
    );
    summary.interrupted += interrupted.length;
    for (const job of interrupted) {
      const { interruptedRetries } = interruptedRetryState.parse(job.data ?? {});
      if (interruptedRetries >= limits.maxRetries) {
        summary.exhausted++;
      } else if (
        (job.finishedOn ?? 0) + interruptedRetryDelayMs(interruptedRetries, limits) > now ||
        summary.retried >= limits.perPass
      ) {
        summary.notYetDue++;
      } else if (await retryFailedJob(job, { interruptedRetries: interruptedRetries + 1 })) {
        summary.retried++;
        deps.logger.info(
          { queue: queue.name, jobId: job.id, retry: interruptedRetries + 1 },
          'an interrupted job runs again',
        );
      }
    }
  }
  if (summary.retried > 0) {
    await deps.counters.increment('interrupted_job_retries', summary.retried);
  }
  // Those left to staff show in the board; a warning every minute for a month would be noise.
  if (summary.retried + summary.notYetDue > 0) {
    deps.logger.warn(summary, 'jobs failed because their workers stopped in the middle of them');
  } else if (summary.exhausted > 0) {
    deps.logger.info(summary, 'interrupted jobs left to staff after their last retry');
  }
  return summary;
}
