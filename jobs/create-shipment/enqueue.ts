import {
  askedBy,
  type OrderStage,
  onEventForJob,
  onOrderEvent,
  stageOf,
} from '../../src/domain/order-lifecycle.js';
import { enqueueEditCheck } from '../check-order-edit/enqueue.js';
import type { QueueContext } from '../context.js';
import { orderJobName } from '../job-name.js';
import { registeredMarkJobId, retryFailedMark } from '../mark-order/enqueue.js';
import { WHEN_INTERRUPTED } from '../redrive.js';
import { CREATE_SHIPMENT_QUEUE, createShipmentPayload, orderJobId } from './payload.js';

export type EnqueueResult = 'queued' | 'requeued' | 'already_queued' | 'already_registered';

type Deps = Pick<QueueContext, 'queueOf' | 'records' | 'logger'>;

/** The only way in, so "one job per order" holds however an order arrives. */
export async function enqueueOrder(
  deps: Deps,
  orderId: string,
  source: string,
  orderName?: string,
  /** If the caller has just read its record. */
  stage?: OrderStage,
  /** `checkEdits` false: the event shows no edit (OrderEvent.noEditShown). */
  { checkEdits = true }: { checkEdits?: boolean } = {},
): Promise<EnqueueResult> {
  stage ??= stageOf(await deps.records.get(orderId));
  if (onOrderEvent(stage, false) !== 'to_job') {
    await retryFailedMark(deps, registeredMarkJobId(orderId));
    if (checkEdits) await enqueueEditCheck(deps, orderId, orderName);
    return 'already_registered';
  }
  const data = createShipmentPayload.parse({ orderId, source });
  const jobId = orderJobId(orderId);
  const queue = deps.queueOf({ queue: CREATE_SHIPMENT_QUEUE });

  const existing = await queue.getJob(jobId);
  const action = onEventForJob(await existing?.getState());
  if (action === 'leave') return 'already_queued';
  if (action === 'ask_running_job') {
    // If the job settled meanwhile, nobody reads the request: take it back and queue anew. If it
    // settles after this look, afterSettled takes it; only one side can.
    await deps.records.requestRerun(orderId);
    if ((await queue.getJobState(jobId)) === 'active') return 'already_queued';
    if (!(await deps.records.takeRerun(orderId))) return 'already_queued';
    return enqueueOrder(deps, orderId, source, orderName);
  }
  if (action === 'retry_failed') await noteWhoAsked(deps, orderId, source);
  try {
    if (action === 'retry_failed') {
      if (askedBy(source) === 'staff') {
        await existing!.updateData({ ...existing!.data, [WHEN_INTERRUPTED.countField]: 0 });
      }
      // resetAttemptsMade: else a job that used up its attempts gets one more try only (BullMQ and
      // the failure policy count from attemptsMade).
      await existing!.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      deps.logger.info({ orderId, source }, 'order changed after its job failed: job retried');
      return 'requeued';
    }
    if (action === 'replace_finished') await existing!.remove();
  } catch (error) {
    // Another delivery retried or replaced it a moment ago: the job is live again, the aim.
    const after = onEventForJob(await (await queue.getJob(jobId))?.getState());
    if (after === 'leave' || after === 'ask_running_job') return 'already_queued';
    throw error;
  }
  await noteWhoAsked(deps, orderId, source);
  // If a concurrent delivery added the job meanwhile, BullMQ keeps that one: still one job.
  await queue.add(orderJobName('create shipment', orderId, orderName), data, { jobId });
  return existing ? 'requeued' : 'queued';
}

async function noteWhoAsked(deps: Deps, orderId: string, source: string): Promise<void> {
  if (askedBy(source) === 'staff') await deps.records.takeEventRun(orderId);
  else await deps.records.noteEventRun(orderId);
}

/** An event that came after the run's last look (`ask_running_job`) gets a fresh run. */
export async function queueLateRerun(deps: Deps, orderId: string): Promise<void> {
  if (!(await deps.records.takeRerun(orderId))) return;
  deps.logger.info({ orderId }, 'order changed as its job ended: queued again');
  await enqueueOrder(deps, orderId, 'event-during-run');
}
