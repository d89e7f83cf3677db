import type {
  CreateFulfillmentInput,
  FulfillmentSummary,
  Fulfillments,
} from '../../src/store/types.js';
import type { JobSettings } from '../context.js';
import { defineShipmentUpdateJob } from '../shipment-updates/define-update-job.js';
import { queueShipmentUpdates, statusMetafieldsDue } from '../shipment-updates/follow-ups.js';
import {
  type WriteStatusDeps,
  writeShipmentStatus,
  writeStatusIfDue,
} from '../write-shipment-status/write-status.js';
import { fulfilShipment } from './fulfil.js';

/** Due status metafields go with the first fulfillment, or alone after a run that made none. */
function statusAlongside(
  reference: string,
  deps: WriteStatusDeps & { store: Fulfillments; settings: Pick<JobSettings, 'sync'> },
) {
  let sent = false;
  return {
    async createFulfillment(input: CreateFulfillmentInput): Promise<FulfillmentSummary> {
      const shipment = sent ? null : await deps.tracking.get(reference);
      let created: FulfillmentSummary | undefined;
      if (!shipment || !statusMetafieldsDue(shipment, deps.settings.sync)) {
        created = await deps.store.createFulfillment(input);
      } else {
        await writeShipmentStatus(reference, deps, {
          shipment,
          firstWrite: async (metafields) => {
            created = await deps.store.createFulfillment({
              ...input,
              orderStatus: { orderId: reference, metafields },
            });
          },
        });
      }
      // Only once made: a refused one (its status may or may not be set) leaves it to the next.
      sent = true;
      return created!;
    },
    async writeIfNotSent(): Promise<void> {
      if (sent) return;
      const shipment = await deps.tracking.get(reference);
      if (shipment) await writeStatusIfDue(shipment, deps);
    },
  };
}

/** Longer than a fulfilment takes, Shopify's throttling waits included. */
const WRITE_LOCK_MS = 120_000;

/** Shipped at the provider: one Shopify fulfillment per location, with the tracking. */
export const fulfilShipmentJob = defineShipmentUpdateJob({
  update: 'fulfil',
  storePriority: 'follow-up',
  async write(reference, ctx, job) {
    // One holder per execution. Another fulfil job of the order is waited for, so the two never
    // fulfil it twice. An earlier execution of this job is taken over at once: BullMQ reruns a job
    // only once it declared it stalled, and that execution, if alive, stops before its next write.
    const holder = `${job.id}/${job.token ?? ''}`;
    if (!(await ctx.tracking.holdWriteLock(reference, holder, WRITE_LOCK_MS, `${job.id}/`))) {
      throw new Error(
        `Another fulfilment of order ${reference} is running; this one waits its turn.`,
      );
    }
    const keepWriteLock = async () => {
      if (!(await ctx.tracking.keepWriteLock(reference, holder, WRITE_LOCK_MS))) {
        throw new Error(
          `This run of the fulfilment of order ${reference} lost the order's write lock (a later run took over, or it expired); it stops without writing.`,
        );
      }
    };
    const status = statusAlongside(reference, ctx);
    // The store's other methods stay as they are, wherever they are defined (prototype included).
    const store: typeof ctx.store = Object.create(ctx.store);
    store.createFulfillment = status.createFulfillment;
    let outcome: Awaited<ReturnType<typeof fulfilShipment>>;
    try {
      outcome = await fulfilShipment(reference, { ...ctx, store, keepWriteLock });
    } finally {
      await ctx.tracking.releaseWriteLock(reference, holder);
    }
    await status.writeIfNotSent();
    // Delivered already? The delivered event can follow now that the fulfillment exists.
    const shipment = await ctx.tracking.get(reference);
    if (shipment) await queueShipmentUpdates(ctx, shipment);
    return outcome;
  },
  wrote: ['fulfilled', 'tracking-updated', 'tracking-added'],
  log: {
    fulfilled: 'Fulfilled with the tracking, one fulfillment per location.',
    'already-fulfilled': 'A fulfillment already carries this tracking number: nothing written.',
    'tracking-updated': 'The tracking number changed at the provider: our fulfillments updated.',
    'tracking-added': 'Fulfilled without tracking in Shopify: the tracking was added to it.',
    'nothing-to-fulfil': 'Nothing of the order is left for the merchant to fulfil.',
    stale: 'The shipment has no tracking number to fulfil with (yet).',
  },
});
