import type { Queue } from 'bullmq';
import type { Logger } from '../../src/log.js';
import type { CounterName, Counters } from '../../src/metrics/counters.js';
import { allFailedJobs, retryFailedJob } from '../../src/queue/failed-jobs.js';
import type { JobContext } from '../context.js';
import type { AnyJobDefinition } from '../job-definition.js';
import { redriveCount, redriveDelayMs, redriveOf } from '../redrive.js';

/** Jobs run again in one pass at most (oldest failure first), so an outage comes back slowly. */
export const RETRIES_PER_PASS = 100;

export interface RetryPassSummary {
  /** Jobs failed for good in the queues with a redrive when the pass began. */
  failed: number;
  retried: number;
  /** Waiting for their next run (or for the next pass). */
  notYetDue: number;
  /** Failures their job's redrive does not run again (a refusal, say): left to staff. */
  notRetried: number;
  /** Run again `maxRetries` times already: left to staff. */
  exhausted: number;
}

export interface RetryPassDeps {
  /** The job catalog: each job's `redrive` says which of its failures are run again. */
  jobs: readonly AnyJobDefinition[];
  queueOf(job: AnyJobDefinition): Queue;
  settings: JobContext['settings'];
  counters: Counters;
  logger: Logger;
  perPass?: number;
}

/**
 * One pass over the jobs that failed for good: each one its job's redrive covers is run again
 * (with a fresh set of attempts) once its last failure is older than its wait. Without this a
 * failed mark stays off the Shopify order until the order happens to be seen again, and an order
 * whose create job was cut off by crashes stays unshipped.
 */
export async function retryFailedJobs(
  deps: RetryPassDeps,
  now: number = Date.now(),
): Promise<RetryPassSummary> {
  const perPass = deps.perPass ?? RETRIES_PER_PASS;
  const summary: RetryPassSummary = {
    failed: 0,
    retried: 0,
    notYetDue: 0,
    notRetried: 0,
    exhausted: 0,
  };
  const retriedBy = new Map<CounterName, number>();
  for (const definition of deps.jobs) {
    const redrive = redriveOf(definition);
    if (!redrive) continue;
    const queue = deps.queueOf(definition);
    const failed = await allFailedJobs(queue);
    summary.failed += failed.length;
    for (const job of failed) {
      const retries = redriveCount(job, redrive);
      if (!redrive.retries(job)) {
        summary.notRetried++;
      } else if (retries >= redrive.maxRetries) {
        summary.exhausted++;
      } else if (
        (job.finishedOn ?? 0) + redriveDelayMs(retries, redrive, deps.settings) > now ||
        summary.retried >= perPass
      ) {
        summary.notYetDue++;
      } else if (
        (await retryFailedJob(job, { ...job.data, [redrive.countField]: retries + 1 })) ===
        'retried'
      ) {
        summary.retried++;
        retriedBy.set(redrive.counter, (retriedBy.get(redrive.counter) ?? 0) + 1);
        deps.logger.info(
          { queue: queue.name, jobId: job.id, retry: retries + 1 },
          'a job that failed for good runs again',
        );
      }
    }
  }
  for (const [counter, retried] of retriedBy) await deps.counters.increment(counter, retried);
  // Those left to staff show in the board; a warning every minute for a month would be noise.
  if (summary.retried + summary.notYetDue > 0) {
    deps.logger.warn(summary, 'jobs that failed for good, run again on schedule');
  } else if (summary.exhausted > 0) {
    deps.logger.info(summary, 'failed jobs left to staff after their last run again');
  }
  return summary;
}
