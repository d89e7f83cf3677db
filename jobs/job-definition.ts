import type { DefaultJobOptions, Job } from 'bullmq';
import type { z } from 'zod';
import type { CounterName } from '../src/metrics/counters.js';
import type { StorePriority } from '../src/store/index.js';
import type { JobContext } from './context.js';

/**
 * Everything the connector knows about one kind of job, declared once in its folder and listed in
 * `jobs/catalog.ts`. Queues, workers, schedules and (later) the board, replay and metrics are
 * made by iterating the catalog, so a new job is one folder and one catalog line.
 */
export interface JobDefinition<Payload = unknown> {
  /** The queue name, also the name of its jobs. */
  readonly queue: string;
  /** Checked when a job is added and again when it is taken: payloads hold ids, never personal data. */
  readonly payload: z.ZodType<Payload>;
  /** BullMQ job id of a payload: no ':' and never all digits. */
  jobId(payload: Payload): string;
  /** Attempts, backoff and retention of its jobs. */
  options(settings: JobContext['settings']): DefaultJobOptions;
  /** Jobs one worker runs at a time. */
  readonly concurrency: number;
  /** Its jobs call the partner API: the queue pauses with the others when the token is refused. */
  readonly callsPartner: boolean;
  /**
   * `follow-up`: it moves an order already registered on, so its Shopify requests go ahead of new
   * orders' (SHOPIFY_FOLLOW_UP_RESERVE). Default `registration`: they wait in turn.
   */
  readonly storePriority?: StorePriority;
  /** A job scheduler that adds one job every `everyMs` (the payload is `{}`). */
  readonly schedule?: { id: string; everyMs(settings: JobContext['settings']): number };
  /**
   * Which of its jobs that failed for good the retry-failed-jobs schedule runs again, and when.
   * Without one, a job that is not scheduled is run again when its worker was cut off mid-run too
   * often (`WHEN_INTERRUPTED`, jobs/redrive.ts): every job of ours is safe to run again.
   */
  readonly redrive?: Redrive;
  /**
   * The work of one job: calls its use case with the ports it needs. The payload is already
   * checked, and what it throws goes through the one failure policy (src/queue/failure-policy.ts).
   */
  process(context: JobContext): (payload: Payload, job: Job) => Promise<unknown>;
  /**
   * Records a job that failed for good where an admin will see it (the reason is readable).
   * `failure` holds what was thrown and the job itself, and whether BullMQ failed it for being
   * cut off mid-run too often (`interrupted`: its worker died, nothing is known of the work).
   */
  onGiveUp?(
    context: JobContext,
    payload: Payload,
    reason: string,
    failure: { error: unknown; job: Job; interrupted: boolean },
  ): Promise<void>;
  /**
   * Runs in the worker's process once BullMQ has settled the job (completed, or failed for good):
   * for what only the end of a run may decide, such as an event that came in its last moments.
   */
  afterSettled?(context: JobContext, payload: Payload): Promise<void>;
}

/** How the retry-failed-jobs schedule runs again a queue's jobs that failed for good. */
export interface Redrive {
  /** Whether this failed job is run again; the others stay failed, for staff. */
  retries(job: Job): boolean;
  /** The wait after its failure; doubles after each run again that failed too, up to `maxDelayMs`. */
  firstDelayMs(settings: JobContext['settings']): number;
  maxDelayMs?: number;
  /** Runs again of one job before it is left to staff. */
  maxRetries: number;
  /** The field of the job's data that counts them (the board shows it; a replay resets it). */
  countField: string;
  /** The counter they add to. */
  counter: CounterName;
}

/** Declares a job; the identity function that lets TypeScript infer the payload type. */
export function defineJob<Payload>(definition: JobDefinition<Payload>): JobDefinition<Payload> {
  return definition;
}

/** A job of any payload, as the catalog lists them (each is checked against its own schema). */
// biome-ignore lint/suspicious/noExplicitAny: the catalog holds jobs of different payloads
export type AnyJobDefinition = JobDefinition<any>;
