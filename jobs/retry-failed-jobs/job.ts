import { z } from 'zod';
import type { AnyJobDefinition } from '../job-definition.js';
import { defineJob } from '../job-definition.js';
import { redriveOf } from '../redrive.js';
import { retryFailedJobs } from './retry-pass.js';

/** How often the pass runs at most; each failed job waits its own growing delay. */
const PASS_EVERY_MS = 60_000;

/**
 * Scheduled: runs again the jobs that failed for good which their job's `redrive` covers (marks on
 * Shopify orders, jobs whose workers kept dying under them), after a growing wait, a few times at
 * most; and logs how many there are. `jobs` is the job catalog, handed in by the catalog itself.
 */
export function retryFailedJobsJob(jobs: () => readonly AnyJobDefinition[]) {
  return defineJob({
    queue: 'retry-failed-jobs',
    payload: z.object({}),
    // Scheduled runs get their ids from the scheduler; one added by hand gets one of its own.
    jobId: () => `retry-failed-${Date.now()}`,
    options: () => ({
      attempts: 1,
      removeOnComplete: { count: 200 },
      removeOnFail: { count: 200 },
    }),
    concurrency: 1,
    callsPartner: false,
    schedule: {
      id: 'retry-failed-jobs',
      // As often as the shortest first wait when that is shorter, so a job runs again on time.
      everyMs: (settings) =>
        Math.min(
          PASS_EVERY_MS,
          ...jobs().map((job) => redriveOf(job)?.firstDelayMs(settings) ?? PASS_EVERY_MS),
        ),
    },
    process: (ctx) => async (_payload, job) =>
      retryFailedJobs({
        jobs: jobs(),
        queueOf: (definition) => ctx.queueOf(definition),
        settings: ctx.settings,
        counters: ctx.counters,
        logger: ctx.logger.child({ module: 'retry-failed-jobs', jobId: job.id }),
      }),
  });
}
