import type { StoreOrder } from '../../src/domain/order.js';
import {
  decideLook,
  judgeOrder,
  onCreateAnswer,
  onFailure,
  takesPlaceBeforeLoading,
} from '../../src/domain/order-lifecycle.js';
import type { OrderMarksSeen } from '../../src/domain/order-marks.js';
import { recheckDue, waitCountsFrom } from '../../src/domain/shipment-contents.js';
import type { FieldErrors } from '../../src/domain/shipment-contract.js';
import { furthestStage, isHandedToCarrier } from '../../src/domain/shipment-progress.js';
import { formatFieldErrors, type MappingResult } from '../../src/domain/shipment-request.js';
import type { BudgetSlot, PartnerApi } from '../../src/partner/client.js';
import { creationFromHistory } from '../../src/partner/create-answer.js';
import { PartnerNotFoundError, PartnerValidationError } from '../../src/partner/errors.js';
import { parsePartnerTimestamp } from '../../src/partner/time.js';
import { FinalJobError } from '../../src/queue/failure-policy.js';
import type { OrderRecord } from '../../src/records/order-records.js';
import { compareWithSent } from '../check-order-edit/check-order-edit.js';
import type { JobContext, JobSettings, QueueContext } from '../context.js';
import type { MarkOrder } from '../mark-order/payload.js';
import { handleCancelledAfterRegistration } from './cancelled-after-registration.js';

export interface RegisterShipmentDeps
  extends Pick<QueueContext, 'records' | 'counters' | 'logger'> {
  store: Pick<JobContext['store'], 'getOrder'>;
  partner: Pick<PartnerApi, 'reserveCreate' | 'createShipment' | 'getShipment'>;
  tracking: Pick<JobContext['tracking'], 'track' | 'get'>;
  settings: Pick<JobSettings, 'shipment' | 'eligibility'>;
  markOrder: MarkOrder;
  /** A Logs-tab line: ids, names and provider numbers only (BullMQ keeps it in clear text). */
  step?(line: string): Promise<void>;
  /** Tests drive it (a waiting order's contents and next look). */
  now?: () => Date;
}

export type RegisterOutcome =
  | { outcome: 'registered'; orderNumber: string; created: boolean }
  | { outcome: 'already_registered'; orderNumber: string | undefined }
  | { outcome: 'cancelled_after_registration'; orderNumber: string | undefined }
  | { outcome: 'skipped'; code: string; reason: string };

/** Staff must fix the order, then replay. */
export class ShipmentInvalidError extends FinalJobError {
  constructor(
    message: string,
    readonly fieldErrors: FieldErrors,
  ) {
    super(message);
  }
}

/** Unchanged since it failed: fails at once, the provider not called. */
export class UnchangedSinceFailureError extends FinalJobError {}

/** The order id is the provider's idempotency key, so repeating after any failure is safe. */
export async function registerShipment(
  orderId: string,
  deps: RegisterShipmentDeps,
  /** `fromEvent`: an order event asked, not staff. `record`: if just read. */
  run: { fromEvent?: boolean; record?: OrderRecord | null } = {},
): Promise<RegisterOutcome> {
  const fromEvent = Boolean(run.fromEvent);
  const record = run.record !== undefined ? run.record : await deps.records.get(orderId);
  // Partner budget place: taken at most once, given back unless a request used it.
  let slot = takesPlaceBeforeLoading(record, fromEvent) ? await deps.partner.reserveCreate() : null;
  try {
    // Reloaded on every run: the order may have changed or been cancelled since it was queued.
    const order = await deps.store.getOrder(orderId);
    await deps.step?.(
      order ? `loaded order ${order.name}` : `order ${orderId} not found in the store`,
    );
    const now = deps.now?.() ?? new Date();
    const judged = order && judgeOrder(order, deps.settings, now);
    const leftOut = judged?.leftOut;
    if (leftOut) {
      await deps.step?.(`left out of the shipment: ${leftOut}`);
      deps.logger.info({ orderId, leftOut }, 'part of the order is not for the provider');
    }
    let decision = decideLook({ record, order: judged, fromEvent });

    if (decision.do === 'look_up') {
      // A 404 forgets the send, so later sightings of an order that will not ship cost nothing.
      slot ??= await deps.partner.reserveCreate();
      const found = await findShipmentAtProvider(orderId, order, judged?.seen, slot, deps);
      if (found && decision.found === 'registered') {
        return { outcome: 'registered', orderNumber: found, created: false };
      }
      if (found) {
        await handleCancelledAfterRegistration(orderId, deps);
        return { outcome: 'cancelled_after_registration', orderNumber: found };
      }
      if (record?.sentAt) await deps.records.clearSent(orderId, record.sentAt);
      decision = decision.otherwise;
    }

    switch (decision.do) {
      case 'flag_cancelled':
        await handleCancelledAfterRegistration(orderId, deps);
        return { outcome: 'cancelled_after_registration', orderNumber: record?.orderNumber };
      case 'confirm_registered':
        await deps.step?.(
          `already registered at the provider as ${record?.orderNumber ?? 'unknown'}`,
        );
        await deps.counters.increment('shipments_already_registered');
        // An event mid-send queued no edit check (not registered yet), so the edit is judged now.
        if (order && record?.state === 'registered') {
          const shipped = isHandedToCarrier((await deps.tracking.get(orderId))?.stage ?? 'pending');
          await compareWithSent(orderId, record, order, { receiverOnly: shipped }, deps);
        }
        // A run that died before queueing it left the order unmarked, and nothing else would ever
        // mark it; one job per order and idempotent writes: harmless otherwise.
        await deps.markOrder(orderId, 'registered', judged?.seen);
        return { outcome: 'already_registered', orderNumber: record?.orderNumber };
      case 'skip': {
        const since = record?.waitingSince ? new Date(record.waitingSince) : now;
        const { code, reason } = decision;
        await deps.records.markSkipped(orderId, code, reason);
        await deps.step?.(`skipped (${code}): ${reason}`);
        await deps.counters.increment('orders_skipped');
        deps.logger.info({ orderId, code, reason }, 'order skipped');
        if (decision.wait) {
          const { held } = judged!.contents;
          const due = recheckDue(held, now, since);
          await deps.records.markWaiting(orderId, due, now, waitCountsFrom(held, since));
        }
        // Cancelling cannot be undone, so one mark job per order clears its error marks.
        if (decision.clearFailureMarks) await deps.markOrder(orderId, 'cancelled_after_failure');
        return { outcome: 'skipped', code, reason };
      }
      case 'refuse_unchanged':
        await deps.counters.increment('unchanged_refusals_not_resent');
        deps.logger.info({ orderId }, 'order unchanged since it failed: not sent again');
        throw new UnchangedSinceFailureError(
          record?.reason ??
            'The order has not changed since it failed. Fix it in Shopify, or replay it.',
        );
      case 'refuse':
        throw await refuse(
          orderId,
          `Order ${order!.name} cannot be shipped as it is`,
          judged!.mapped?.ok === false ? judged!.mapped.errors : {},
          judged!,
          deps,
        );
    }

    const { request } = judged!.mapped as Extract<MappingResult, { ok: true }>;
    const sent = judged!.kept;
    slot ??= await deps.partner.reserveCreate();
    let sentAt: Date | undefined;
    const { shipment, created } = await deps.partner
      .createShipment(request, {
        slot,
        // Only a request that leaves may make an unseen shipment and cost a later look-up.
        onSending: () => {
          sentAt = new Date();
          return deps.records.markSending(
            orderId,
            sent.fingerprint,
            sentAt,
            sent.units,
            sent.settings,
          );
        },
      })
      .catch(async (error) => {
        if (!(error instanceof PartnerValidationError)) throw error;
        const forget =
          onCreateAnswer('invalid', Boolean(record?.sentAt)) === 'refuse_forgetting_send';
        if (forget && sentAt) await deps.records.clearSent(orderId, sentAt.toISOString());
        throw await refuse(
          orderId,
          `The provider refused order ${order!.name}`,
          error.fieldErrors,
          judged!,
          deps,
        );
      });
    const next = onCreateAnswer(created ? 'created' : 'existing', Boolean(record?.sentAt));
    const { order_number: orderNumber, status, created_at: createdAt } = shipment;
    await deps.records.markRegistered(
      orderId,
      { orderNumber, status, createdAt },
      new Date(),
      next === 'record_made' ? sent : undefined,
    );
    if (next === 'record_existing') {
      // The provider ships the earlier request's contents: a change since is an edit after
      // registration. Not followed yet, so its lines and weights still compare.
      const registered = await deps.records.get(orderId);
      if (registered)
        await compareWithSent(orderId, registered, order!, { receiverOnly: false }, deps);
    }
    // Once recorded: a run cut off after this line is retried as "already registered".
    await deps.step?.(`POST /shipments → ${created ? 201 : 200} ${orderNumber}`);
    // The answer's created_at is the provider's own, the time its list filters on.
    if (createdAt) await followShipment(orderId, orderNumber, status ?? 'pending', createdAt, deps);
    await deps.counters.increment('shipments_registered');
    deps.logger.info(
      { orderId, orderNumber, created },
      created ? 'shipment registered' : 'shipment was already registered at the provider',
    );
    // What the order carries goes along, so the mark job writes only what it lacks, unread.
    await deps.markOrder(orderId, 'registered', judged!.seen);
    return { outcome: 'registered', orderNumber, created };
  } finally {
    // Not given back (Redis gone): the place goes unused for one window.
    await slot?.release().catch(() => {});
  }
}

/** A shipment the status sync already follows is left as the sync knows it. */
async function followShipment(
  reference: string,
  orderNumber: string,
  status: string,
  createdAt: string,
  deps: RegisterShipmentDeps,
  options: { updatedAt?: string; orderCreatedAt?: string } = {},
): Promise<void> {
  const updatedAt = options.updatedAt ?? createdAt;
  const providerCreatedAtMs = parsePartnerTimestamp(createdAt)?.getTime();
  const updatedAtMs = parsePartnerTimestamp(updatedAt)?.getTime();
  // An answer without a legible time is followed once the sync lists it.
  if (providerCreatedAtMs === undefined || updatedAtMs === undefined) return;
  // The sync lists from the oldest open shipment's creation. One read from history may be late:
  // cap it at the order's creation, which no shipment can precede.
  const orderCreatedAtMs = Date.parse(options.orderCreatedAt ?? '');
  const createdAtMs = Number.isFinite(orderCreatedAtMs)
    ? Math.min(providerCreatedAtMs, orderCreatedAtMs)
    : providerCreatedAtMs;
  // A shipment the provider had already may have moved on. Followed from its creation, the sync
  // sees that as a change (reads tracking, fulfils); recorded as shipped, it never would.
  const movedOn = furthestStage(undefined, status) !== 'pending';
  await deps.tracking.track(reference, {
    orderNumber,
    status: movedOn ? 'pending' : status,
    updatedAt: movedOn ? createdAt : updatedAt,
    updatedAtMs: movedOn ? createdAtMs : updatedAtMs,
    stage: 'pending',
    createdAtMs,
  });
}

/** Records a shipment the provider already has; its order number, or null. */
async function findShipmentAtProvider(
  orderId: string,
  order: StoreOrder | null,
  seen: OrderMarksSeen | undefined,
  slot: BudgetSlot | undefined,
  deps: RegisterShipmentDeps,
): Promise<string | null> {
  const shipment = await deps.partner
    .getShipment(orderId, { priority: 'create', slot })
    .catch((error) => {
      if (error instanceof PartnerNotFoundError) return null;
      throw error;
    });
  if (!shipment) return null;
  const createdAt = creationFromHistory(shipment);
  await deps.records.markRegistered(orderId, {
    orderNumber: shipment.order_number,
    status: shipment.status,
    createdAt,
  });
  await followShipment(orderId, shipment.order_number, shipment.status, createdAt, deps, {
    updatedAt: shipment.updated_at,
    orderCreatedAt: order?.createdAt,
  });
  await deps.counters.increment('shipments_registered');
  deps.logger.warn(
    { orderId, orderNumber: shipment.order_number },
    'found a shipment at the provider whose create answer was lost',
  );
  await deps.markOrder(orderId, 'registered', seen);
  return shipment.order_number;
}

async function refuse(
  orderId: string,
  headline: string,
  fieldErrors: FieldErrors,
  judged: Pick<ReturnType<typeof judgeOrder>, 'kept' | 'seen'>,
  deps: RegisterShipmentDeps,
): Promise<ShipmentInvalidError> {
  const reason = `${headline}:\n${formatFieldErrors(fieldErrors)}\nFix the order in Shopify; it is retried when the order changes, or replay the job.`;
  await recordFailure(orderId, reason, deps, {
    fingerprint: judged.kept.fingerprint,
    seen: judged.seen,
  });
  await deps.counters.increment('orders_refused');
  await deps.step?.(`refused, fields: ${Object.keys(fieldErrors).join(', ')}`);
  deps.logger.warn({ orderId, fields: Object.keys(fieldErrors) }, 'order refused');
  return new ShipmentInvalidError(reason, fieldErrors);
}

/** Records the reason and the fingerprint judged later; marks Shopify only for a new reason. */
export async function recordFailure(
  orderId: string,
  reason: string,
  deps: Pick<RegisterShipmentDeps, 'records' | 'markOrder'>,
  /** `fingerprint`: encoded. */
  judged: { fingerprint?: string; seen?: OrderMarksSeen; interrupted?: boolean } = {},
): Promise<void> {
  const next = onFailure(await deps.records.get(orderId), reason, judged);
  await deps.records.markFailed(orderId, reason);
  await deps.records.recordFailedFingerprint(orderId, next.failedFingerprint);
  if (next.mark) await deps.markOrder(orderId, 'failed', judged.seen);
}
