import { type AnyJobDefinition, defineScheduledJob } from '../job-definition.js';
import { redriveOf } from '../redrive.js';
import { retryFailedJobs } from './retry-pass.js';

/** At most; each failed job waits its own growing delay. */
const PASS_EVERY_MS = 60_000;

/** `jobs`: the job catalog, handed in by the catalog itself. */
export function retryFailedJobsJob(jobs: () => readonly AnyJobDefinition[]) {
  return defineScheduledJob({
    queue: 'retry-failed-jobs',
    jobIdPrefix: 'retry-failed',
    retry: { attempts: 1 },
    callsPartner: false,
    // As often as the shortest first wait when that is shorter, so a job runs again on time.
    everyMs: (settings) =>
      Math.min(
        PASS_EVERY_MS,
        ...jobs().map((job) => redriveOf(job)?.firstDelayMs(settings) ?? PASS_EVERY_MS),
      ),
    process: (ctx) => async (_payload, job) =>
      retryFailedJobs({
        ...ctx,
        jobs: jobs(),
        logger: ctx.logger.child({ module: 'retry-failed-jobs', jobId: job.id }),
      }),
  });
}
