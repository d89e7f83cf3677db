import { type Job, UnrecoverableError } from 'bullmq';
import { runWithFailurePolicy } from '../src/queue/failure-policy.js';
import type { JobContext } from './context.js';
import { isRetry, type JobDefinition } from './job-definition.js';
import { redriveCount, redriveDelayMs, redriveOf } from './redrive.js';

/** What the processors threw: failures the failure policy has already dealt with. */
const failuresSeen = new WeakSet<object>();

export function processorFor<Payload>(definition: JobDefinition<Payload>, context: JobContext) {
  const work = definition.process(context);
  const queue = context.queueOf(definition);
  const { onGiveUp } = definition;
  return async (job: Job): Promise<unknown> => {
    try {
      const parsed = definition.payload.safeParse(job.data);
      if (!parsed.success) {
        throw new UnrecoverableError(`Malformed job payload: ${parsed.error.message}`);
      }
      const payload = parsed.data;
      // Marks each rerun in the Logs tab; a retry that resets attempts keeps the earlier stack.
      if (isRetry(job) || (job.stacktrace?.length ?? 0) > 0) {
        await job.log(`── run at ${new Date().toISOString()}, attempt ${job.attemptsMade + 1} ──`);
      }
      return await runWithFailurePolicy(job, () => work(payload, job), {
        queue,
        authGuard: context.authGuard,
        counters: context.counters,
        logger: context.logger.child({ queue: definition.queue, jobId: job.id }),
        onGiveUp:
          onGiveUp &&
          ((reason, error) =>
            onGiveUp(context, payload, reason, { error, job, interrupted: false })),
      });
    } catch (error) {
      if (error instanceof Object) failuresSeen.add(error);
      throw error;
    }
  };
}

/**
 * Runs `onGiveUp` for jobs BullMQ failed without the processor (stalled past `maxStalledCount`).
 * Wire it to the worker's `failed` event: emitted only in the process that took the job, so once.
 */
export function unseenFailureRecorder<Payload>(
  definition: JobDefinition<Payload>,
  context: JobContext,
) {
  return async (job: Job, error: Error): Promise<void> => {
    if (failuresSeen.has(error) || !job.finishedOn) return;
    const reason = unseenFailureReason(job, error, definition, context);
    context.logger
      .child({ queue: definition.queue, jobId: job.id })
      .error({ reason, stalledCounter: job.stalledCounter }, 'job failed for good without running');
    const payload = definition.payload.safeParse(job.data);
    if (payload.success) {
      const interrupted = wasInterruptedTooOften(job);
      await definition.onGiveUp?.(context, payload.data, reason, { error, job, interrupted });
    }
    // Beside BullMQ's own terse reason on the board.
    await job.log(reason);
  };
}

function unseenFailureReason(
  job: Job,
  error: Error,
  definition: Pick<JobDefinition, 'redrive' | 'schedule'>,
  context: JobContext,
): string {
  if (!wasInterruptedTooOften(job)) {
    return `BullMQ failed the job without running it (${error.message}). Replay the job.`;
  }
  // No interruption count: the reason goes onto the order, and each change is an order event.
  const interrupted =
    'The job was interrupted too often: its worker stopped in the middle of it (a crash, a shutdown that could not wait for it, or a lost Redis connection), so BullMQ stopped running it.';
  const redrive = redriveOf(definition);
  if (!redrive?.retries(job)) {
    return `${interrupted} Running it again is safe: replay the job.`;
  }
  const retries = redriveCount(job, redrive);
  if (retries >= redrive.maxRetries) {
    return `${interrupted} The retry-failed-jobs schedule ran it again ${retries} times and it was cut off each time: find what stops its worker (its logs, its memory), then replay the job.`;
  }
  const ms = redriveDelayMs(retries, redrive, context.settings);
  const wait =
    ms < 90_000 ? `${Math.max(1, Math.round(ms / 1_000))} s` : `${Math.round(ms / 60_000)} minutes`;
  return `${interrupted} Running it again is safe: the retry-failed-jobs schedule runs it again in about ${wait}, or replay the job now.`;
}

/** BullMQ defers the failure of a job that stalled too often to the next worker that takes it. */
function wasInterruptedTooOften(job: Job): boolean {
  return Boolean(job.deferredFailure) && job.stalledCounter > 0;
}
