import { type Job, type Queue, RATE_LIMIT_ERROR, UnrecoverableError, Worker } from 'bullmq';
import type { Logger } from '../log.js';
import type { Counters } from '../metrics/counters.js';
import {
  isRetryablePartnerError,
  PartnerAuthError,
  PartnerError,
  PartnerUrlMisconfiguredError,
  PartnerWaitError,
} from '../partner/errors.js';
import { isRetryableStoreError, StoreBudgetWaitError, StoreError } from '../store/errors.js';
import type { PartnerAuthGuard } from './partner-auth.js';

/**
 * The job itself decided it cannot succeed as things stand (an order the provider refuses, say),
 * and has already recorded why: it fails for good with this message, no retries.
 */
export class JobRefusedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** How long a job whose token was refused waits before it is looked at again (queues are paused). */
const AUTH_RECHECK_MS = 5_000;

export interface FailurePolicyDeps {
  /** The job's own queue: a wait holds it back (BullMQ's rate-limit path). */
  queue: Queue;
  authGuard: PartnerAuthGuard;
  counters: Counters;
  logger: Logger;
  /**
   * Called once when the job fails for good (a permanent error, or the last attempt of a
   * transient one) with the admin-readable reason, before BullMQ records the failure.
   */
  onGiveUp?(reason: string, error: unknown): Promise<void>;
}

/**
 * The one mapping from what a job's work threw onto BullMQ's outcomes, for every job that calls
 * the partner or the store:
 * - a spent budget (the partner's, or Shopify's shared bucket) or a 429: back to the queue for
 *   the wait, no attempt used;
 * - a refused partner token (401) or a misconfigured PARTNER_API_URL (404 from a route the API
 *   always has): the partner queues pause in every process with that reason, no attempt used;
 * - a transient failure (5xx, network, throttling): retried with backoff until the last attempt;
 * - anything permanent, or the last attempt: failed for good with a reason an admin can act on.
 */
export async function runWithFailurePolicy<T>(
  job: Job,
  work: () => Promise<T>,
  deps: FailurePolicyDeps,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PartnerWaitError) return deferQueue(deps.queue, error.waitMs);
    if (error instanceof StoreBudgetWaitError) return deferQueue(deps.queue, error.waitMs);
    if (error instanceof PartnerAuthError) {
      await deps.counters.increment('partner_auth_failures');
      await deps.authGuard.tokenRefused();
      return deferQueue(deps.queue, AUTH_RECHECK_MS);
    }
    if (error instanceof PartnerUrlMisconfiguredError) {
      // Says nothing about this order: it waits, paused, until the address is fixed.
      await deps.authGuard.urlMisconfigured();
      return deferQueue(deps.queue, AUTH_RECHECK_MS);
    }
    // BullMQ's own signals: the job already went back to its queue, or already failed for good.
    if (error instanceof Error && error.message === RATE_LIMIT_ERROR) throw error;
    if (error instanceof UnrecoverableError) throw error;
    if (error instanceof JobRefusedError) throw failForGood(error.message);

    const message = error instanceof Error ? error.message : String(error);
    const attempt = job.attemptsMade + 1;
    const transient = isTransient(error);
    if (transient && attempt < (job.opts.attempts ?? 1)) throw error;

    const reason = transient
      ? `Gave up after ${attempt} attempts: ${message} Replay the job once the cause is fixed.`
      : `${message} Replay the job once the cause is fixed.`;
    deps.logger.error({ err: error, attemptsMade: attempt }, 'job failed for good');
    await deps.onGiveUp?.(reason, error);
    throw failForGood(reason);
  }
}

/**
 * Fails a job for good with an admin's reason. BullMQ keeps the error's stack and Bull Board
 * shows it in place of the reason: a trace through this file tells an admin nothing (the
 * cause, with its own stack, is in the log), so the stack is the reason alone.
 */
function failForGood(reason: string): UnrecoverableError {
  const failure = new UnrecoverableError(reason);
  failure.stack = reason;
  return failure;
}

/** Whether the same work may succeed later: partner and store errors say so; anything else may. */
function isTransient(error: unknown): boolean {
  if (error instanceof PartnerError) return isRetryablePartnerError(error);
  if (error instanceof StoreError) return isRetryableStoreError(error);
  return true;
}

/**
 * Puts the job back at the head of its queue and holds the queue for `waitMs`: the job keeps its
 * attempts, and no worker slot sits idle waiting. (BullMQ's rate-limit path does exactly this.)
 */
export async function deferQueue(queue: Queue, waitMs: number): Promise<never> {
  await queue.rateLimit(Math.max(1, Math.ceil(waitMs)));
  throw Worker.RateLimitError();
}

/**
 * The waiting part of the policy alone, for code that calls the partner outside a catalog job
 * (the budget benchmark): a spent budget or a 429 sends the job back for the wait.
 */
export async function runPartnerStep<T>(queue: Queue, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof PartnerWaitError) return deferQueue(queue, error.waitMs);
    throw error;
  }
}
