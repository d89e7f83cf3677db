import { type Queue, Worker } from 'bullmq';
import { PartnerWaitError } from '../partner/errors.js';

/**
 * Puts the job back at the head of its queue and holds the queue for `waitMs`: the job keeps its
 * attempts, and no worker slot sits idle waiting. (BullMQ's rate-limit path does exactly this.)
 */
export async function deferQueue(queue: Queue, waitMs: number): Promise<never> {
  await queue.rateLimit(Math.max(1, Math.ceil(waitMs)));
  throw Worker.RateLimitError();
}

/**
 * Runs one step of a job that calls the partner. When the budget is spent or the provider said
 * 429, the job goes back to its queue for the wait (no attempt used) instead of failing.
 */
export async function runPartnerStep<T>(queue: Queue, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof PartnerWaitError) return deferQueue(queue, error.waitMs);
    throw error;
  }
}
