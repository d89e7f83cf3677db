import type { DefaultJobOptions, Job } from 'bullmq';
import { z } from 'zod';
import type { CounterName } from '../src/metrics/counters.js';
import type { StorePriority } from '../src/store/index.js';
import type { JobContext } from './context.js';

export interface JobDefinition<Payload = unknown> {
  /** Also the name of its jobs. */
  readonly queue: string;
  /** Checked when added and when taken. Ids only, never personal data. */
  readonly payload: z.ZodType<Payload>;
  /** BullMQ job id of a payload: no ':' and never all digits. */
  jobId(payload: Payload): string;
  options(settings: JobContext['settings']): DefaultJobOptions;
  readonly concurrency: number;
  /** The queue pauses with the others when the partner refuses the token. */
  readonly callsPartner: boolean;
  /** `follow-up`: its Shopify requests go ahead of new orders' (SHOPIFY_FOLLOW_UP_RESERVE). */
  readonly storePriority?: StorePriority;
  /** Adds one job, payload `{}`, every `everyMs`. */
  readonly schedule?: { id: string; everyMs(settings: JobContext['settings']): number };
  /** Unscheduled jobs default to `WHEN_INTERRUPTED`: every job of ours is safe to run again. */
  readonly redrive?: Redrive;
  /** The payload is already checked; what it throws goes through src/queue/failure-policy.ts. */
  process(context: JobContext): (payload: Payload, job: Job) => Promise<unknown>;
  /** Shows a give-up to admins. `interrupted`: it stalled too often; its work is unknown. */
  onGiveUp?(
    context: JobContext,
    payload: Payload,
    reason: string,
    failure: { error: unknown; job: Job; interrupted: boolean },
  ): Promise<void>;
  /** Runs once BullMQ settled the job, for what only the end of a run may decide. */
  afterSettled?(context: JobContext, payload: Payload): Promise<void>;
}

/** How the retry-failed-jobs schedule runs again a queue's jobs that failed for good. */
export interface Redrive {
  /** The others stay failed, for staff. */
  retries(job: Job): boolean;
  /** Doubles after each run again that failed too, up to `maxDelayMs`. */
  firstDelayMs(settings: JobContext['settings']): number;
  maxDelayMs?: number;
  maxRetries: number;
  /** Job-data field counting them (the board shows it; a replay resets it). */
  countField: string;
  counter: CounterName;
}

/** Lets TypeScript infer the payload type. */
export function defineJob<Payload>(definition: JobDefinition<Payload>): JobDefinition<Payload> {
  return definition;
}

/** One run at a time, payload `{}`, every `everyMs`; the schedule's id is the queue's. */
export function defineScheduledJob(
  definition: Omit<
    JobDefinition<Record<string, never>>,
    'payload' | 'jobId' | 'options' | 'concurrency' | 'schedule'
  > & {
    /** Of runs added by hand; the scheduler ids its own. */
    jobIdPrefix: string;
    retry: Pick<DefaultJobOptions, 'attempts' | 'backoff'>;
    everyMs(settings: JobContext['settings']): number;
  },
) {
  const { jobIdPrefix, retry, everyMs, ...rest } = definition;
  return defineJob({
    ...rest,
    payload: z.object({}),
    jobId: () => `${jobIdPrefix}-${Date.now()}`,
    options: () => ({ ...retry, removeOnComplete: { count: 200 }, removeOnFail: { count: 200 } }),
    concurrency: 1,
    schedule: { id: definition.queue, everyMs },
  });
}

// biome-ignore lint/suspicious/noExplicitAny: the catalog holds jobs of different payloads
export type AnyJobDefinition = JobDefinition<any>;

/** A run cut off mid-way comes back with more attempts started than made. */
export const isRetry = (job: Job) => job.attemptsMade > 0 || (job.attemptsStarted ?? 0) > 1;
