import { type Job, type Queue, RATE_LIMIT_ERROR, UnrecoverableError } from 'bullmq';
import {
  isRetryablePartnerError,
  PartnerAuthError,
  PartnerError,
} from '../../src/partner/errors.js';
import type { PartnerAuthGuard } from '../../src/queue/partner-auth.js';
import { deferQueue, runPartnerStep } from '../../src/queue/partner-wait.js';
import { isRetryableStoreError, StoreError } from '../../src/store/errors.js';
import { createShipmentPayload } from './payload.js';
import {
  OrderRefusedError,
  type RegisterOutcome,
  type RegisterShipmentDeps,
  recordFailure,
  registerShipment,
} from './register-shipment.js';

export interface CreateShipmentProcessorDeps extends RegisterShipmentDeps {
  queue: Queue;
  authGuard: PartnerAuthGuard;
}

/** How long a job whose token was refused waits before it is looked at again (queues are paused). */
const AUTH_RECHECK_MS = 5_000;

/**
 * Maps what registering an order came to onto BullMQ: a result, a wait that costs no attempt,
 * a retry with backoff, or a failure for good whose message is what Bull Board shows.
 */
export function createShipmentProcessor(deps: CreateShipmentProcessorDeps) {
  return async (job: Job): Promise<RegisterOutcome> => {
    const parsed = createShipmentPayload.safeParse(job.data);
    if (!parsed.success)
      throw new UnrecoverableError(`Malformed job payload: ${parsed.error.message}`);
    const { orderId } = parsed.data;
    const logger = deps.logger.child({ jobId: job.id, orderId });

    try {
      return await runPartnerStep(deps.queue, async () => {
        let outcome = await registerShipment(orderId, { ...deps, logger });
        // An event that came while this run had the order loaded asked for one more look.
        while (outcome.outcome === 'skipped' && (await deps.records.takeRerun(orderId))) {
          outcome = await registerShipment(orderId, { ...deps, logger });
        }
        return outcome;
      });
    } catch (error) {
      if (error instanceof PartnerAuthError) {
        await deps.counters.increment('partner_auth_failures');
        await deps.authGuard.tokenRefused();
        return deferQueue(deps.queue, AUTH_RECHECK_MS);
      }
      if (error instanceof OrderRefusedError) throw new UnrecoverableError(error.message);
      // BullMQ's own signal that the job went back to its queue (a partner wait).
      if (error instanceof Error && error.message === RATE_LIMIT_ERROR) throw error;

      const message = error instanceof Error ? error.message : String(error);
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (isTransient(error) && !lastAttempt) throw error;

      const reason = isTransient(error)
        ? `Gave up after ${job.attemptsMade + 1} attempts: ${message} Replay the job once the cause is fixed.`
        : `${message} Replay the job once the cause is fixed.`;
      await recordFailure(orderId, reason, deps);
      await deps.counters.increment('shipment_create_failures');
      logger.error({ err: error }, 'shipment could not be registered');
      throw new UnrecoverableError(reason);
    }
  };
}

/** Whether the same run may succeed later: partner and store errors say so; anything else may. */
function isTransient(error: unknown): boolean {
  if (error instanceof PartnerError) return isRetryablePartnerError(error);
  if (error instanceof StoreError) return isRetryableStoreError(error);
  return true;
}
