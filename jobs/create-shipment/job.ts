import type { Job } from 'bullmq';
import { BACKOFF_TYPE } from '../../src/queue/backoff.js';
import { JobRefusedError } from '../../src/queue/failure-policy.js';
import type { JobContext } from '../context.js';
import { defineJob } from '../job-definition.js';
import { KEPT_JOBS } from '../kept-jobs.js';
import { enqueueMarkOrder } from '../mark-order/enqueue.js';
import { queueLateRerun } from './enqueue.js';
import { registerLookingAgain } from './look-again.js';
import { CREATE_SHIPMENT_QUEUE, createShipmentPayload, orderJobId } from './payload.js';
import { type RegisterShipmentDeps, recordFailure } from './register-shipment.js';
import { refusedAgainUnchanged } from './unchanged-refusal.js';

/** Store order → POST /shipments, with the order id as the provider's idempotency key. */
export const createShipmentJob = defineJob({
  queue: CREATE_SHIPMENT_QUEUE,
  payload: createShipmentPayload,
  // One job per order, whichever way the order arrives.
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
    async ({ orderId }, job) => {
      // Whether an order event (not a replay) started this run: an unchanged refusal is not
      // sent again for one.
      const fromEvent = await ctx.records.takeEventRun(orderId);
      // A staff run of a refused order: whether it changed anything is told in the job.
      const before = fromEvent ? null : await ctx.records.get(orderId);
      try {
        return await registerLookingAgain(orderId, registerDeps(ctx, job), { fromEvent });
      } catch (error) {
        if (before && error instanceof JobRefusedError) {
          throw refusedAgainUnchanged(before, await ctx.records.get(orderId), error) ?? error;
        }
        // The job runs again (a retry, a wait, a pause): that run was asked for by the same event.
        if (fromEvent && !(error instanceof JobRefusedError))
          await ctx.records.noteEventRun(orderId);
        throw error;
      }
    },
  async onGiveUp(ctx, { orderId }, reason, { interrupted }) {
    await recordFailure(orderId, reason, registerDeps(ctx), { interrupted });
    await ctx.counters.increment('shipment_create_failures');
  },
  afterSettled: (ctx, { orderId }) => queueLateRerun(ctx, orderId),
});

/** For the tests and commands that look an order's job up. */
export { orderJobId };

function registerDeps(ctx: JobContext, job?: Job): RegisterShipmentDeps {
  return {
    store: ctx.store,
    partner: ctx.partner,
    records: ctx.records,
    tracking: ctx.tracking,
    counters: ctx.counters,
    settings: ctx.settings,
    markOrder: (orderId, kind, seen) => enqueueMarkOrder(ctx, orderId, kind, seen),
    logger: ctx.logger.child({ module: 'create-shipment', jobId: job?.id }),
    ...(job ? { step: async (line: string) => void (await job.log(line)) } : {}),
    ...(ctx.clock ? { now: ctx.clock } : {}),
  };
}
