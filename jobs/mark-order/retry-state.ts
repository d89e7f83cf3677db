import { z } from 'zod';
import { StoreNotFoundError, StoreUserError } from '../../src/store/errors.js';

/** Kept in the job's data so the board shows it; the processor's payload parse drops it. */
export const markRetryState = z.object({
  scheduledRetries: z.number().int().nonnegative().catch(0),
  refusedByShopify: z.boolean().catch(false),
});

export type MarkRetryState = z.infer<typeof markRetryState>;

/** Fails the same way until someone changes something, so it is not retried on schedule. */
export function isShopifyRefusal(error: unknown): boolean {
  return error instanceof StoreUserError || error instanceof StoreNotFoundError;
}
