import type { Job } from 'bullmq';
import { z } from 'zod';
import type { JobContext } from './context.js';
import type { AnyJobDefinition, Redrive } from './job-definition.js';

/**
 * The reason BullMQ gives a job it failed for being cut off mid-run more often than the workers'
 * `maxStalledCount` allows (moveStalledJobsToWait, applied by the next worker that takes it).
 */
export const STALLED_TOO_OFTEN = 'job stalled more than allowable limit';

/**
 * A job whose workers kept dying under it runs again after 10 minutes (INTERRUPTED_JOB_RETRY_MS),
 * then 20 and 40: a crash or a deploy that hits the same job four times is no reason to leave an
 * order unshipped, and only a job that kills its worker every time runs out. Jobs that failed for
 * any other reason are left alone: their own attempts and the failure policy dealt with those.
 */
export const WHEN_INTERRUPTED: Redrive = {
  retries: (job) => job.failedReason === STALLED_TOO_OFTEN,
  firstDelayMs: (settings) => settings.interruptedJobs.firstRetryDelayMs,
  maxRetries: 3,
  countField: 'interruptedRetries',
  counter: 'interrupted_job_retries',
};

/** What a staff replay writes over an interrupted job's data: all its runs again are left. */
export const FRESH_INTERRUPTED_RETRIES = { interruptedRetries: 0 } as const;

/** A job's redrive: its own, or WHEN_INTERRUPTED; none for a scheduled job (the next run comes). */
export function redriveOf(
  definition: Pick<AnyJobDefinition, 'redrive' | 'schedule'>,
): Redrive | undefined {
  return definition.redrive ?? (definition.schedule ? undefined : WHEN_INTERRUPTED);
}

const count = z.number().int().nonnegative().catch(0);

/** How often the schedule ran this job again so far. */
export function redriveCount(job: Job, redrive: Redrive): number {
  return count.parse(job.data?.[redrive.countField]);
}

/** The wait after a failure that follows `retriesSoFar` runs again. */
export function redriveDelayMs(
  retriesSoFar: number,
  redrive: Redrive,
  settings: JobContext['settings'],
): number {
  return Math.min(
    redrive.maxDelayMs ?? Number.POSITIVE_INFINITY,
    redrive.firstDelayMs(settings) * 2 ** retriesSoFar,
  );
}
