import { CREATE_SHIPMENT_JOB, createShipmentPayload } from '../../jobs/create-shipment/payload.js';
import { type UpdateStoreKind, updateStorePayload } from '../../jobs/update-store/payload.js';
import type { Logger } from '../log.js';
import type { OrderRecords } from '../records/order-records.js';
import { orderJobId } from './names.js';
import type { Queues } from './queues.js';

export type EnqueueResult = 'queued' | 'requeued' | 'already_queued' | 'already_registered';

/**
 * The one way work enters the queues. Webhooks, reconciliation, backfill and replays all come
 * through here, so "one job per order" holds whichever way an order arrives, however often.
 */
export class Enqueuer {
  constructor(
    private readonly queues: Queues,
    private readonly records: OrderRecords,
    private readonly logger: Logger,
  ) {}

  /**
   * Queues an order for registration unless it is registered or already has a live job.
   * An order whose earlier job ended without a shipment (skipped as not yet paid, say, or
   * refused and since fixed in Shopify) gets a fresh run.
   */
  async order(orderId: string, source: string): Promise<EnqueueResult> {
    if (await this.records.isRegistered(orderId)) {
      // The one thing left to do for a registered order: a write-back to Shopify that gave up.
      await this.retryFailedWriteBack(`registered-${orderId}`);
      return 'already_registered';
    }
    const data = createShipmentPayload.parse({ orderId, source });
    const jobId = orderJobId(orderId);
    const queue = this.queues.createShipment;

    const existing = await queue.getJob(jobId);
    if (existing) {
      const state = await existing.getState();
      if (state === 'failed') {
        // A fresh run: without the reset, a job that used up its attempts would get one more
        // try only (BullMQ and the processor's "last attempt?" check count from attemptsMade).
        try {
          await existing.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
        } catch (error) {
          // Another delivery retried it a moment ago: the job is live again, which is the aim.
          if (await this.hasLiveJob(jobId)) return 'already_queued';
          throw error;
        }
        this.logger.info({ orderId, source }, 'order changed after its job failed: job retried');
        return 'requeued';
      }
      if (state === 'active') {
        // The running job may already have loaded the order as it was before this event.
        await this.records.requestRerun(orderId);
        return 'already_queued';
      }
      if (state !== 'completed' && state !== 'unknown') return 'already_queued';
      // Completed without a registration (skipped): this event may have made it eligible.
      // (`unknown`: removed since we looked; adding below is then all there is to do.)
      try {
        if (state === 'completed') await existing.remove();
      } catch (error) {
        if (await this.hasLiveJob(jobId)) return 'already_queued';
        throw error;
      }
    }
    // If a concurrent delivery added the job meanwhile, BullMQ keeps that one: still one job.
    await queue.add(CREATE_SHIPMENT_JOB, data, { jobId });
    return existing ? 'requeued' : 'queued';
  }

  private async hasLiveJob(jobId: string): Promise<boolean> {
    const job = await this.queues.createShipment.getJob(jobId);
    if (!job) return false;
    const state = await job.getState();
    return state !== 'completed' && state !== 'failed' && state !== 'unknown';
  }

  /**
   * Queues a write-back to the Shopify order. Registration and cancellation write once per order
   * (a fixed job id); a write-back of theirs that failed for good is retried instead, so it is
   * never swallowed by its own failed job.
   */
  async storeUpdate(orderId: string, kind: UpdateStoreKind): Promise<void> {
    const data = updateStorePayload.parse({ orderId, kind });
    if (kind === 'failed') {
      await this.queues.updateStore.add(kind, data, { jobId: `failed-${orderId}-${Date.now()}` });
      return;
    }
    const jobId = `${kind.replaceAll('_', '-')}-${orderId}`;
    if (await this.retryFailedWriteBack(jobId)) return;
    // If the job exists in any other state, BullMQ ignores this add: one write-back per order.
    await this.queues.updateStore.add(kind, data, { jobId });
  }

  /** Retries a write-back job that failed for good; false when there is none to retry. */
  private async retryFailedWriteBack(jobId: string): Promise<boolean> {
    const existing = await this.queues.updateStore.getJob(jobId);
    if (!existing || (await existing.getState()) !== 'failed') return false;
    try {
      await existing.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    } catch (error) {
      // Retried by another caller a moment ago (fine), or removed meanwhile (then add it anew).
      if (!(await this.queues.updateStore.getJob(jobId))) return false;
      const state = await existing.getState();
      if (state === 'failed') throw error;
    }
    return true;
  }
}
