import { type Queue, Worker } from 'bullmq';

/**
 * Puts the job back at the head of its queue and holds the queue for `waitMs`: the job keeps its
 * attempts, and no worker slot sits idle waiting. (BullMQ's rate-limit path does exactly this.)
 */
export async function deferQueue(queue: Queue, waitMs: number): Promise<never> {
  await queue.rateLimit(Math.max(1, Math.ceil(waitMs)));
  throw Worker.RateLimitError();
}
