import { allFailedJobs, retryFailedJob } from '../../src/queue/failed-jobs.js';
import type { JobContext } from '../context.js';
import type { AnyJobDefinition, Redrive } from '../job-definition.js';
import { redriveCount, redriveDelayMs, redriveOf } from '../redrive.js';

/** Oldest failure first, so an outage comes back slowly. */
export const RETRIES_PER_PASS = 100;

export interface RetryPassDeps
  extends Pick<JobContext, 'queueOf' | 'settings' | 'counters' | 'logger'> {
  jobs: readonly AnyJobDefinition[];
  perPass?: number;
}

/** Else a failed mark waits until the order is seen again; a crashed create job stays failed. */
export async function retryFailedJobs(deps: RetryPassDeps, now: number = Date.now()) {
  const perPass = deps.perPass ?? RETRIES_PER_PASS;
  const summary = {
    /** When the pass began, in queues with a redrive. */
    failed: 0,
    retried: 0,
    /** Waiting for their next run or the next pass. */
    notYetDue: 0,
    /** Not covered by their redrive (a refusal, say): left to staff. */
    notRetried: 0,
    /** Left to staff after `maxRetries`. */
    exhausted: 0,
  };
  const retriedBy = new Map<Redrive['counter'], number>();
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
