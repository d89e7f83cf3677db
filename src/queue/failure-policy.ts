import { type Job, type Queue, RATE_LIMIT_ERROR, UnrecoverableError, Worker } from 'bullmq';
import { messageOf } from '../error-message.js';
import type { Logger } from '../log.js';
import type { Counters } from '../metrics/counters.js';
import type { PartnerAuthGuard } from '../partner/auth-guard.js';
import {
  isRetryablePartnerError,
  PartnerAuthError,
  PartnerError,
  PartnerUrlMisconfiguredError,
  PartnerWaitError,
} from '../partner/errors.js';
import { isRetryableStoreError, StoreBudgetWaitError, StoreError } from '../store/errors.js';

/** The job has already recorded why it cannot succeed: no retries. */
export class FinalJobError extends Error {
  override name = this.constructor.name;
}

/** The queues are paused meanwhile. */
const AUTH_RECHECK_MS = 5_000;

export interface FailurePolicyDeps {
  queue: Queue;
  authGuard: PartnerAuthGuard;
  counters: Counters;
  logger: Logger;
  /** Runs once, before BullMQ records the failure for good. */
  onGiveUp?(reason: string, error: unknown): Promise<void>;
}

/** Waits (budget, 429), a refused token or a wrong PARTNER_API_URL use no attempt. */
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
      // Says nothing about this order: it waits until the address is fixed.
      await deps.authGuard.urlMisconfigured();
      return deferQueue(deps.queue, AUTH_RECHECK_MS);
    }
    // BullMQ's own signals: the job already went back to its queue, or already failed for good.
    if (error instanceof Error && error.message === RATE_LIMIT_ERROR) throw error;
    if (error instanceof UnrecoverableError) throw error;
    if (error instanceof FinalJobError) throw failForGood(error.message);

    const message = messageOf(error);
    const attempt = job.attemptsMade + 1;
    const transient = isTransient(error);
    if (transient && attempt < (job.opts.attempts ?? 1)) throw error;

    const gaveUp = transient ? `Gave up after ${attempt} attempts: ` : '';
    const reason = `${gaveUp}${message} Replay the job once the cause is fixed.`;
    deps.logger.error({ err: error, attemptsMade: attempt }, 'job failed for good');
    await deps.onGiveUp?.(reason, error);
    throw failForGood(reason);
  }
}

/** Bull Board shows the stack in place of the reason; the cause's stack is in the log. */
function failForGood(reason: string): UnrecoverableError {
  const failure = new UnrecoverableError(reason);
  failure.stack = reason;
  return failure;
}

function isTransient(error: unknown): boolean {
  if (error instanceof PartnerError) return isRetryablePartnerError(error);
  if (error instanceof StoreError) return isRetryableStoreError(error);
  return true;
}

/** The job keeps its attempts and no worker slot sits idle waiting. */
async function deferQueue(queue: Queue, waitMs: number): Promise<never> {
  await queue.rateLimit(Math.max(1, Math.ceil(waitMs)));
  throw Worker.RateLimitError();
}

/** For code that calls the partner outside a catalog job. */
export async function runPartnerStep<T>(queue: Queue, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof PartnerWaitError) return deferQueue(queue, error.waitMs);
    throw error;
  }
}
