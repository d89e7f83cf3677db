import type { Job, Queue } from 'bullmq';

const PAGE = 500;

export async function allFailedJobs(queue: Queue): Promise<Job[]> {
  const jobs: Job[] = [];
  for (let start = 0; ; start += PAGE) {
    // `asc`: BullMQ's failed set is ordered by the time of failure.
    const page = await queue.getJobs(['failed'], start, start + PAGE - 1, true);
    jobs.push(...page.filter(Boolean));
    if (page.length < PAGE) return jobs;
  }
}

/** Without the reset, a job that used up its attempts would get one more try only. */
export async function retryFailedJob(job: Job, data: unknown = job.data) {
  try {
    await job.updateData(data);
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return 'retried';
  } catch (error) {
    const state = await job.getState();
    if (state === 'failed') throw error;
    // `taken`: someone else ran it again meanwhile.
    return state === 'unknown' ? 'gone' : 'taken';
  }
}
