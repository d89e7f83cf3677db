import { type Job, UnrecoverableError } from 'bullmq';
import { StoreUserError } from '../../src/store/errors.js';
import { updateStorePayload } from './payload.js';
import { type WriteBackDeps, writeBack } from './write-back.js';

/** Store failures retry with backoff; Shopify refusing the write itself (userErrors) does not. */
export function updateStoreProcessor(deps: WriteBackDeps) {
  return async (job: Job) => {
    const parsed = updateStorePayload.safeParse(job.data);
    if (!parsed.success)
      throw new UnrecoverableError(`Malformed job payload: ${parsed.error.message}`);
    const { orderId, kind } = parsed.data;
    const logger = deps.logger.child({ jobId: job.id, orderId });
    try {
      return { outcome: await writeBack(orderId, kind, { ...deps, logger }) };
    } catch (error) {
      if (error instanceof StoreUserError) throw new UnrecoverableError(error.message);
      throw error;
    }
  };
}
