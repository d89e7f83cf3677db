import type { Job } from 'bullmq';
import type { JobContext } from '../context.js';
import { defineJob, type JobDefinition } from '../job-definition.js';
import { SHOPIFY_WRITE_JOBS } from '../kept-jobs.js';
import {
  SHIPMENT_UPDATES,
  type ShipmentUpdate,
  shipmentUpdatePayload,
  updateJobId,
} from './updates.js';

/** `write` gets the context with the job's own logger. */
export function defineShipmentUpdateJob<Outcome extends string>(spec: {
  update: ShipmentUpdate;
  write(reference: string, deps: JobContext, job: Job): Promise<Outcome>;
  /** For the board. */
  log: Record<Outcome, string>;
  /** Each is noted on the order's timeline. */
  wrote: readonly NoInfer<Outcome>[];
  storePriority?: JobDefinition['storePriority'];
}) {
  const queue = SHIPMENT_UPDATES[spec.update].queue;
  return defineJob({
    queue,
    payload: shipmentUpdatePayload,
    jobId: (payload) => updateJobId(spec.update, payload),
    options: () => ({ ...SHOPIFY_WRITE_JOBS }),
    concurrency: 2,
    callsPartner: false,
    storePriority: spec.storePriority,
    process:
      (ctx) =>
      async ({ reference }, job) => {
        const logger = ctx.logger.child({ module: queue, jobId: job.id });
        const outcome = await spec.write(reference, { ...ctx, logger }, job);
        await job.log(spec.log[outcome]);
        if (spec.wrote.includes(outcome)) {
          const write = `${spec.update}: ${outcome}`;
          await ctx.timeline.note(reference, { at: Date.now(), kind: 'shopify-write', write });
        }
        return { outcome };
      },
  });
}
