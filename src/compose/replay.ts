import type { Job, Queue } from 'bullmq';
import { JOBS } from '../../jobs/catalog.js';
import { createShipmentJob } from '../../jobs/create-shipment/job.js';
import { registeredMarkJobId, retryFailedMark } from '../../jobs/mark-order/enqueue.js';
import { markOrderJob } from '../../jobs/mark-order/job.js';
import { redriveOf } from '../../jobs/redrive.js';
import { REPLAY_SOURCE } from '../domain/order-lifecycle.js';
import { allFailedJobs, retryFailedJob } from '../queue/failed-jobs.js';
import type { SharedParts } from './parts.js';

export const REPLAYABLE_QUEUES: readonly string[] = JOBS.map((job) => job.queue);

export class UnknownQueueError extends Error {
  constructor(readonly queue: string) {
    super(`No queue "${queue}". The queues are: ${REPLAYABLE_QUEUES.join(', ')}.`);
    this.name = 'UnknownQueueError';
  }
}

export class UnknownJobError extends Error {
  constructor(
    readonly queue: string,
    readonly jobId: string,
  ) {
    super(
      `No job "${jobId}" in the ${queue} queue (it may have been removed after its retention).`,
    );
    this.name = 'UnknownJobError';
  }
}

export interface ReplayRequest {
  queue: string;
  jobId?: string;
  since?: Date;
  dryRun?: boolean;
}

export interface ReplayedJob {
  queue: string;
  jobId: string;
  orderId?: string;
  /** `already_registered`: not sent again; its failed mark is retried instead (`markRetried`). */
  outcome: 'retried' | 'not_failed' | 'already_registered' | 'already_queued';
  state: string;
  failedReason?: string;
  markRetried?: string;
}

type Parts = Pick<SharedParts, 'queueOf' | 'records' | 'logger' | 'enqueueOrder'>;

async function jobsToReplay(queue: Queue, request: ReplayRequest): Promise<Job[]> {
  if (request.jobId) {
    const job = await queue.getJob(request.jobId);
    if (!job) throw new UnknownJobError(queue.name, request.jobId);
    return [job];
  }
  const since = request.since?.getTime();
  return (await allFailedJobs(queue))
    .filter((job) => since === undefined || (job.finishedOn ?? 0) >= since)
    .sort((a, b) => (a.finishedOn ?? 0) - (b.finishedOn ?? 0));
}

/** Creates go back through `enqueueOrder` as a replay: even an unchanged refusal is sent again. */
export async function replayJobs(parts: Parts, request: ReplayRequest): Promise<ReplayedJob[]> {
  const definition = JOBS.find((job) => job.queue === request.queue);
  if (!definition) throw new UnknownQueueError(request.queue);
  const queue = parts.queueOf(definition);
  const results: ReplayedJob[] = [];
  for (const job of await jobsToReplay(queue, request)) {
    results.push(await replayOne(parts, definition, job, request.dryRun ?? false));
  }
  return results;
}

async function replayOne(
  parts: Parts,
  definition: (typeof JOBS)[number],
  job: Job,
  dryRun: boolean,
): Promise<ReplayedJob> {
  const { queue } = definition;
  const jobId = job.id ?? '';
  const state = await job.getState();
  const orderId = typeof job.data?.orderId === 'string' ? job.data.orderId : undefined;
  const base = {
    queue,
    jobId,
    ...(orderId ? { orderId } : {}),
    state,
    ...(job.failedReason ? { failedReason: job.failedReason } : {}),
  };
  if (state !== 'failed') return { ...base, outcome: 'not_failed' };

  const createFor = queue === createShipmentJob.queue ? orderId : undefined;
  if (createFor && (await parts.records.isRegistered(createFor))) {
    const markJobId = registeredMarkJobId(createFor);
    const markFailed = dryRun
      ? (await parts.queueOf(markOrderJob).getJobState(markJobId)) === 'failed'
      : await retryFailedMark(parts, markJobId);
    return {
      ...base,
      outcome: 'already_registered',
      ...(markFailed ? { markRetried: markJobId } : {}),
    };
  }
  if (dryRun) return { ...base, outcome: 'retried' };
  if (createFor) {
    const result = await parts.enqueueOrder(createFor, REPLAY_SOURCE);
    const unsent = result === 'already_registered' || result === 'already_queued';
    return { ...base, outcome: unsent ? result : 'retried' };
  }
  // A replay starts afresh, the retry-failed-jobs schedule's count included.
  const redrive = redriveOf(definition);
  const retried =
    queue === markOrderJob.queue
      ? await retryFailedMark(parts, jobId)
      : (await retryFailedJob(
          job,
          redrive ? { ...job.data, [redrive.countField]: 0 } : job.data,
        )) === 'retried';
  return { ...base, outcome: retried ? 'retried' : 'already_queued' };
}
