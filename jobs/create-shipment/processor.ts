import { type Job, type Queue, UnrecoverableError } from 'bullmq';
import {
  isRetryablePartnerError,
  PartnerAuthError,
  PartnerError,
  PartnerWaitError,
} from '../../src/partner/errors.js';
import type { PartnerAuthGuard } from '../../src/queue/partner-auth.js';
import { deferQueue } from '../../src/queue/partner-wait.js';
import { createShipmentPayload } from './payload.js';
import {
  OrderRefusedError,
  type RegisterOutcome,
  type RegisterShipmentDeps,
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
      return await registerShipment(orderId, { ...deps, logger });
    } catch (error) {
      if (error instanceof PartnerWaitError) return deferQueue(deps.queue, error.waitMs);
      if (error instanceof PartnerAuthError) {
        await deps.counters.increment('partner_auth_failures');
        await deps.authGuard.tokenRefused();
        return deferQueue(deps.queue, AUTH_RECHECK_MS);
      }
      if (error instanceof OrderRefusedError) throw new UnrecoverableError(error.message);

      const message = error instanceof Error ? error.message : String(error);
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      const retryable = !(error instanceof PartnerError) || isRetryablePartnerError(error);
      if (retryable && !lastAttempt) throw error;

      const reason = retryable
        ? `Gave up after ${job.attemptsMade + 1} attempts: ${message} Replay the job once the cause is fixed.`
        : `${message} Replay the job once the cause is fixed.`;
      await deps.records.markFailed(orderId, reason);
      await deps.counters.increment('shipment_create_failures');
      await deps.storeUpdate(orderId, 'failed');
      logger.error({ err: error }, 'shipment could not be registered');
      throw new UnrecoverableError(reason);
    }
  };
}
