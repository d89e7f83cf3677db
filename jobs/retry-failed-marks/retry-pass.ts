import type { Queue } from 'bullmq';
import type { Logger } from '../../src/log.js';
import type { Counters } from '../../src/metrics/counters.js';
import { allFailedJobs, retryFailedJob } from '../../src/queue/failed-jobs.js';
import { markOrderPayload } from '../mark-order/payload.js';
import { markRetryState } from '../mark-order/retry-state.js';

/** How failed marks are retried: a growing wait after each failure, and limits on how often. */
export interface MarkRetryLimits {
  /** Wait after the first give-up; doubles after each scheduled retry that fails again. */
  firstDelayMs: number;
  /** The longest wait between two scheduled retries of one mark. */
  maxDelayMs: number;
  /** Scheduled retries of one mark before the schedule leaves it to staff. */
  maxRetries: number;
  /** Marks retried in one pass at most (oldest first), so a long Shopify outage comes back slowly. */
  perPass: number;
}

/** 15 min, 30 min, 1 h … 24 h: ten retries span about five days. */
export const MARK_RETRY_LIMITS: MarkRetryLimits = {
  firstDelayMs: 15 * 60_000,
  maxDelayMs: 24 * 3_600_000,
  maxRetries: 10,
  perPass: 100,
};

export interface FailedMarksSummary {
  /** Mark jobs that had failed for good when the pass began. */
  failed: number;
  retried: number;
  /** Waiting for their next retry (or for the next pass). */
  notYetDue: number;
  /** Shopify refused the write (or the job is malformed): never retried on schedule. */
  refused: number;
  /** Retried `maxRetries` times already: left to staff. */
  exhausted: number;
}

export interface RetryFailedMarksDeps {
  /** The mark-order queue. */
  queue: Queue;
  counters: Counters;
  logger: Logger;
  limits?: MarkRetryLimits;
}

const NO_STATE = { scheduledRetries: 0, refusedByShopify: false };

export function scheduledRetryDelayMs(retriesSoFar: number, limits: MarkRetryLimits): number {
  return Math.min(limits.maxDelayMs, limits.firstDelayMs * 2 ** retriesSoFar);
}

/**
 * One pass over the mark jobs that failed for good: each is retried (with a fresh set of
 * attempts) once its last failure is older than its wait. Without this a failed mark stays off
 * the Shopify order until the order happens to be seen again, which may be never.
 */
export async function retryFailedMarks(
  deps: RetryFailedMarksDeps,
  now: number = Date.now(),
): Promise<FailedMarksSummary> {
  const limits = deps.limits ?? MARK_RETRY_LIMITS;
  const failed = await allFailedJobs(deps.queue);
  const summary: FailedMarksSummary = {
    failed: failed.length,
    retried: 0,
    notYetDue: 0,
    refused: 0,
    exhausted: 0,
  };
  for (const job of failed) {
    const state = markRetryState.safeParse(job.data).data ?? NO_STATE;
    if (state.refusedByShopify || !markOrderPayload.safeParse(job.data).success) {
      summary.refused++;
    } else if (state.scheduledRetries >= limits.maxRetries) {
      summary.exhausted++;
    } else if (
      (job.finishedOn ?? 0) + scheduledRetryDelayMs(state.scheduledRetries, limits) > now ||
      summary.retried >= limits.perPass
    ) {
      summary.notYetDue++;
    } else if (await retryFailedJob(job, { scheduledRetries: state.scheduledRetries + 1 })) {
      summary.retried++;
    }
  }
  if (summary.retried > 0) await deps.counters.increment('order_mark_retries', summary.retried);
  if (summary.failed > 0) {
    deps.logger.warn(summary, 'marks on Shopify orders that failed for good');
  }
  return summary;
}
