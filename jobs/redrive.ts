import type { Job } from 'bullmq';
import { z } from 'zod';
import type { JobSettings } from './context.js';
import type { AnyJobDefinition, Redrive } from './job-definition.js';

/** BullMQ's reason for a job stalled past `maxStalledCount` (moveStalledJobsToWait). */
export const STALLED_TOO_OFTEN = 'job stalled more than allowable limit';

/** A crash or deploy is no reason to leave an order unshipped; other failures had attempts. */
export const WHEN_INTERRUPTED: Redrive = {
  retries: (job) => job.failedReason === STALLED_TOO_OFTEN,
  firstDelayMs: (settings) => settings.interruptedJobs.firstRetryDelayMs,
  maxRetries: 3,
  countField: 'interruptedRetries',
  counter: 'interrupted_job_retries',
};

/** A job's redrive: its own, or WHEN_INTERRUPTED; none for a scheduled job (the next run comes). */
export function redriveOf(definition: Pick<AnyJobDefinition, 'redrive' | 'schedule'>) {
  return definition.redrive ?? (definition.schedule ? undefined : WHEN_INTERRUPTED);
}

const count = z.number().int().nonnegative().catch(0);

export function redriveCount(job: Job, redrive: Redrive): number {
  return count.parse(job.data?.[redrive.countField]);
}

export function redriveDelayMs(retriesSoFar: number, redrive: Redrive, settings: JobSettings) {
  return Math.min(
    redrive.maxDelayMs ?? Number.POSITIVE_INFINITY,
    redrive.firstDelayMs(settings) * 2 ** retriesSoFar,
  );
}
