import { z } from 'zod';
import { StoreNotFoundError, StoreUserError } from '../../src/store/errors.js';

/**
 * What is kept about a failed mark job beside its payload (in its data, so the board shows it):
 * how often the retry-failed-jobs schedule retried it, and whether Shopify refused the write
 * itself. The processor's payload parse drops these fields; only the schedule reads them.
 */
export const markRetryState = z.object({
  scheduledRetries: z.number().int().nonnegative().catch(0),
  refusedByShopify: z.boolean().catch(false),
});

export type MarkRetryState = z.infer<typeof markRetryState>;

/**
 * Shopify refused the write (userErrors: a metafield definition of another type, say) or the
 * order is gone: the same write will fail the same way until someone changes something, so it is
 * not retried on a schedule. Token, throttling and network failures are.
 */
export function isShopifyRefusal(error: unknown): boolean {
  return error instanceof StoreUserError || error instanceof StoreNotFoundError;
}
