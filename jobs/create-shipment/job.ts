import type { Job } from 'bullmq';
import { afterLook, onRunFailed } from '../../src/domain/order-lifecycle.js';
import { BACKOFF_TYPE } from '../../src/queue/backoff.js';
import { FinalJobError } from '../../src/queue/failure-policy.js';
import type { JobContext } from '../context.js';
import { defineJob } from '../job-definition.js';
import { KEPT_JOBS } from '../kept-jobs.js';
import { enqueueMarkOrder } from '../mark-order/enqueue.js';
import { queueLateRerun } from './enqueue.js';
import { CREATE_SHIPMENT_QUEUE, createShipmentPayload, orderJobId } from './payload.js';
import {
  type RegisterOutcome,
  type RegisterShipmentDeps,
  recordFailure,
  registerShipment,
  UnchangedSinceFailureError,
} from './register-shipment.js';

/** Store order → POST /shipments, with the order id as the provider's idempotency key. */
export const createShipmentJob = defineJob({
  queue: CREATE_SHIPMENT_QUEUE,
  payload: createShipmentPayload,
  jobId: ({ orderId }) => orderJobId(orderId),
  options: (settings) => ({
    attempts: settings.createJob.attempts,
    backoff: { type: BACKOFF_TYPE },
    ...KEPT_JOBS,
  }),
  concurrency: 4,
  callsPartner: true,
  process:
    (ctx) =>
    ({ orderId }, job) =>
      registerLookingAgain(orderId, registerDeps(ctx, job)),
  async onGiveUp(ctx, { orderId }, reason, { interrupted }) {
    await recordFailure(orderId, reason, registerDeps(ctx), { interrupted });
    await ctx.counters.increment('shipment_create_failures');
  },
  afterSettled: (ctx, { orderId }) => queueLateRerun(ctx, orderId),
});

/** For tests and commands that look an order's job up. */
export { orderJobId };

/**
 * Looks again when an event came during a look, whatever the outcome (a registered order may just
 * have been cancelled, a refused one fixed). Any throw but a refusal ends the run.
 */
export async function registerLookingAgain(orderId: string, deps: RegisterShipmentDeps) {
  const { fromEvent, record: before } = await deps.records.startRun(orderId);
  try {
    for (let look = 0, record = before; ; look++) {
      let outcome: RegisterOutcome | undefined;
      let refusal: FinalJobError | undefined;
      try {
        outcome = await registerShipment(orderId, deps, { fromEvent, record });
      } catch (error) {
        if (!(error instanceof FinalJobError)) throw error;
        refusal = error;
      }
      const next = afterLook(await deps.records.takeRerun(orderId), look);
      const at = { orderId, outcome: outcome?.outcome ?? 'refused', looks: look + 1 };
      if (next === 'look_again') {
        deps.logger.info(at, 'order changed while it was being registered: looking again');
        record = await deps.records.get(orderId);
        continue;
      }
      if (next === 'give_over') {
        deps.logger.warn(
          at,
          'order keeps changing while it is being registered: the next event or reconciliation pass looks again',
        );
      }
      if (!refusal) return outcome!;
      // A staff retry refused again as before is told so.
      const after = fromEvent || !before ? null : await deps.records.get(orderId);
      if (onRunFailed({ refused: true, fromEvent, before, after }) === 'refused_unchanged') {
        throw new UnchangedSinceFailureError(
          `Retried unchanged: the order is as it was when it was refused (${before!.updatedAt.slice(0, 10)} ${before!.updatedAt.slice(11, 16)} UTC). Fix it in Shopify, then retry.\n${refusal.message}`,
        );
      }
      throw refusal;
    }
  } catch (error) {
    // The next run (retry, wait, pause) is asked for by the same event.
    const refused = error instanceof FinalJobError;
    if (onRunFailed({ refused, fromEvent, before: null, after: null }) === 'note_event_run') {
      await deps.records.noteEventRun(orderId);
    }
    throw error;
  }
}

function registerDeps(ctx: JobContext, job?: Job): RegisterShipmentDeps {
  return {
    ...ctx,
    markOrder: (orderId, kind, seen) => enqueueMarkOrder(ctx, orderId, kind, seen),
    logger: ctx.logger.child({ module: 'create-shipment', jobId: job?.id }),
    ...(job ? { step: async (line: string) => void (await job.log(line)) } : {}),
    ...(ctx.clock ? { now: ctx.clock } : {}),
  };
}
