import { type Job, UnrecoverableError } from 'bullmq';
import { runWithFailurePolicy } from '../src/queue/failure-policy.js';
import type { JobContext } from './context.js';
import type { JobDefinition } from './job-definition.js';

/**
 * The BullMQ processor of a job: checks the payload, runs the job's work, and hands what it threw
 * to the failure policy. Every worker is made with this.
 */
export function processorFor<Payload>(definition: JobDefinition<Payload>, context: JobContext) {
  const work = definition.process(context);
  const queue = context.queueOf(definition);
  return async (job: Job): Promise<unknown> => {
    const parsed = definition.payload.safeParse(job.data);
    if (!parsed.success) {
      throw new UnrecoverableError(`Malformed job payload: ${parsed.error.message}`);
    }
    const payload = parsed.data;
    return runWithFailurePolicy(job, () => work(payload, job), {
      queue,
      authGuard: context.authGuard,
      counters: context.counters,
      logger: context.logger.child({ queue: definition.queue, jobId: job.id }),
      ...(definition.onGiveUp
        ? {
            onGiveUp: (reason: string, error: unknown) =>
              definition.onGiveUp!(context, payload, reason, { error, job }),
          }
        : {}),
    });
  };
}
