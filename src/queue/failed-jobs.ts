import type { Job, Queue } from 'bullmq';

const PAGE = 500;

/** Every job in a queue's failed set, oldest failure first. */
export async function allFailedJobs(queue: Queue): Promise<Job[]> {
  const jobs: Job[] = [];
  for (let start = 0; ; start += PAGE) {
    // `asc`: BullMQ's failed set is ordered by the time of failure.
    const page = await queue.getJobs(['failed'], start, start + PAGE - 1, true);
    jobs.push(...page.filter(Boolean));
    if (page.length < PAGE) return jobs;
  }
}

/**
 * Runs a failed job again with a fresh set of attempts, after writing `data` over its data (the
 * count of scheduled retries, say). False when someone else retried or removed it meanwhile (a
 * replay, another process's pass).
 */
export async function retryFailedJob(job: Job, data: Record<string, unknown>): Promise<boolean> {
  try {
    await job.updateData({ ...job.data, ...data });
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return true;
  } catch (error) {
    const state = await job.getState();
    if (state === 'failed') throw error;
    return false;
  }
}
