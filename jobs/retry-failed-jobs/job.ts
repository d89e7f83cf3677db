import { z } from 'zod';
import type { AnyJobDefinition } from '../job-definition.js';
import { defineJob } from '../job-definition.js';
import { redriveOf } from '../redrive.js';
import { retryFailedJobs } from './retry-pass.js';

/** At most; each failed job waits its own growing delay. */
const PASS_EVERY_MS = 60_000;

/** `jobs`: the job catalog, handed in by the catalog itself. */
export function retryFailedJobsJob(jobs: () => readonly AnyJobDefinition[]) {
  return defineJob({
    queue: 'retry-failed-jobs',
    payload: z.object({}),
    // For runs added by hand; the scheduler ids its own.
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
