import type { Config } from '../../config/index.js';
import { checkEligibility } from '../../src/domain/eligibility.js';
import type { StoreOrder } from '../../src/domain/order.js';
import {
  decideLook,
  type LookDecision,
  onCreateAnswer,
  onFailure,
  takesPlaceBeforeLoading,
} from '../../src/domain/order-lifecycle.js';
import {
  carriesRegistrationMarks,
  marksSeenOn,
  type OrderMarksSeen,
} from '../../src/domain/order-marks.js';
import {
  describeLeftOut,
  encodeSentUnits,
  recheckDue,
  shipmentContents,
  waitCountsFrom,
} from '../../src/domain/shipment-contents.js';
import type { FieldErrors } from '../../src/domain/shipment-contract.js';
import {
  encodeFingerprint,
  encodeSettings,
  type ShipmentFingerprint,
  shipmentFingerprint,
} from '../../src/domain/shipment-fingerprint.js';
import { furthestStage } from '../../src/domain/shipment-progress.js';
import {
  buildShipmentRequest,
  formatFieldErrors,
  type MappingResult,
} from '../../src/domain/shipment-request.js';
import type { Logger } from '../../src/log.js';
import type { Counters } from '../../src/metrics/counters.js';
import type { BudgetSlot, PartnerApi } from '../../src/partner/client.js';
import { creationFromHistory } from '../../src/partner/create-answer.js';
import { PartnerNotFoundError, PartnerValidationError } from '../../src/partner/errors.js';
import type { TrackingRecord } from '../../src/partner/schemas.js';
import { parsePartnerTimestamp } from '../../src/partner/time.js';
import { JobRefusedError } from '../../src/queue/failure-policy.js';
import type { OrderRecord, OrderRecords } from '../../src/records/order-records.js';
import type { ShipmentTracking } from '../../src/records/shipment-tracking.js';
import type { OrderReader } from '../../src/store/types.js';
import { compareWithSent } from '../check-order-edit/check-order-edit.js';
import type { MarkOrder } from '../mark-order/payload.js';
import { handleCancelledAfterRegistration } from './cancelled-after-registration.js';

export interface RegisterShipmentDeps {
  store: Pick<OrderReader, 'getOrder'>;
  partner: Pick<PartnerApi, 'reserveCreate' | 'createShipment' | 'getShipment'>;
  records: OrderRecords;
  /** Registered shipments are followed by the status sync from the start. */
  tracking: Pick<ShipmentTracking, 'track'>;
  counters: Counters;
  settings: Pick<Config, 'shipment' | 'eligibility'>;
  markOrder: MarkOrder;
  logger: Logger;
  /**
   * Notes a step of the run on the job, for its Logs tab in Bull Board. Ids, order names and
   * provider numbers only: BullMQ keeps these lines in clear text.
   */
  step?(line: string): Promise<void>;
  /** What a waiting order's contents and next look are judged by; this machine's clock unless a test drives it. */
  now?: () => Date;
}

export type RegisterOutcome =
  | { outcome: 'registered'; orderNumber: string; created: boolean }
  | { outcome: 'already_registered'; orderNumber: string | undefined }
  | { outcome: 'cancelled_after_registration'; orderNumber: string | undefined }
  | { outcome: 'skipped'; code: string; reason: string };

/** The order cannot become a shipment as it stands; staff must fix it, then replay. */
export class OrderRefusedError extends JobRefusedError {
  constructor(
    message: string,
    readonly fieldErrors: FieldErrors,
  ) {
    super(message);
  }
}

/** The order failed and has not changed since: failed again at once, the provider not called. */
export class UnchangedRefusalError extends JobRefusedError {}

/**
 * One look at the order: load it, decide (src/domain/order-lifecycle.ts), act, record. The order
 * id is the reference (the provider's idempotency key), so repeating this after any failure is
 * safe: a shipment is made exactly once.
 */
export async function registerShipment(
  orderId: string,
  deps: RegisterShipmentDeps,
  /** By an order event (webhook, reconciliation, backfill), or by staff. */
  run: { fromEvent?: boolean } = {},
): Promise<RegisterOutcome> {
  const record = await deps.records.get(orderId);
  // The run's place in the partner budget: taken at most once, given back unless a request used it.
  let slot: BudgetSlot | undefined;
  const takePlace = async () => (slot ??= await deps.partner.reserveCreate());
  if (takesPlaceBeforeLoading(record, Boolean(run.fromEvent))) await takePlace();
  try {
    // Reloaded on every run: the order may have changed or been cancelled since it was queued.
    const order = await deps.store.getOrder(orderId);
    await deps.step?.(
      order ? `loaded order ${order.name}` : `order ${orderId} not found in the store`,
    );
    const now = deps.now?.() ?? new Date();
    const judged = order ? await judge(orderId, order, deps, now) : null;
    const decision = decideLook({ record, order: judged, fromEvent: Boolean(run.fromEvent) });
    return await act(decision, { orderId, record, order, judged, now, takePlace, deps });
  } finally {
    // Not given back (Redis gone): the place goes unused for one window, nothing more.
    await slot?.release().catch(() => {});
  }
}

/** The order as the provider would be asked to ship it: every step works from this one answer. */
async function judge(orderId: string, order: StoreOrder, deps: RegisterShipmentDeps, now: Date) {
  const contents = shipmentContents(order, deps.settings.shipment, { now });
  const eligibility = checkEligibility(order, deps.settings.eligibility, contents);
  const mapped = eligibility.eligible
    ? buildShipmentRequest(order, deps.settings.shipment, contents)
    : null;
  // Digital lines never ship, so only what a parcel might have held is noted: product titles
  // and quantities, what staff need to see why the parcel is smaller than the order.
  const physical = contents.leftOut.filter((units) => units.reason !== 'digital');
  if (mapped && physical.length > 0) {
    const leftOut = describeLeftOut(physical);
    await deps.step?.(`left out of the shipment: ${leftOut}`);
    deps.logger.info({ orderId, leftOut }, 'part of the order is not for the provider');
  }
  return {
    cancelled: Boolean(order.cancelledAt),
    carriesRegistrationMarks: carriesRegistrationMarks(order),
    eligibility,
    fingerprint: shipmentFingerprint(order, deps.settings.shipment, contents),
    mappable: mapped?.ok ?? false,
    contents,
    mapped,
  };
}

interface Acting {
  orderId: string;
  record: OrderRecord | null;
  order: StoreOrder | null;
  judged: Awaited<ReturnType<typeof judge>> | null;
  /** What the order was judged at: the contents and a waiting order's next look follow it. */
  now: Date;
  takePlace: () => Promise<BudgetSlot>;
  deps: RegisterShipmentDeps;
}

async function act(decision: LookDecision, acting: Acting): Promise<RegisterOutcome> {
  const { orderId, record, order, judged, now, takePlace, deps } = acting;
  switch (decision.do) {
    case 'flag_cancelled':
      await handleCancelledAfterRegistration(orderId, deps);
      return { outcome: 'cancelled_after_registration', orderNumber: record?.orderNumber };
    case 'confirm_registered':
      await deps.step?.(
        `already registered at the provider as ${record?.orderNumber ?? 'unknown'}`,
      );
      await deps.counters.increment('shipments_already_registered');
      // A run that died between writing the record and queueing the mark job left the order
      // unmarked in Shopify, and nothing else would ever mark it. Queueing it again is harmless:
      // one mark job per order (a kept job absorbs the add), and its writes are idempotent.
      await deps.markOrder(orderId, 'registered', order ? marksSeenOn(order) : undefined);
      return { outcome: 'already_registered', orderNumber: record?.orderNumber };
    case 'look_up': {
      // A 404 forgets the send, so later sightings of an order that will not ship cost nothing.
      const found = await findShipmentAtProvider(orderId, order, await takePlace(), deps);
      if (!found) {
        if (record?.sentAt) await deps.records.clearSent(orderId, record.sentAt);
        return act(decision.otherwise, acting);
      }
      if (decision.found === 'registered') {
        return { outcome: 'registered', orderNumber: found, created: false };
      }
      await handleCancelledAfterRegistration(orderId, deps);
      return { outcome: 'cancelled_after_registration', orderNumber: found };
    }
    case 'skip': {
      const since = record?.waitingSince ? new Date(record.waitingSince) : now;
      const { code, reason } = decision;
      await deps.records.markSkipped(orderId, code, reason);
      await deps.step?.(`skipped (${code}): ${reason}`);
      await deps.counters.increment('orders_skipped');
      deps.logger.info({ orderId, code, reason }, 'order skipped');
      if (decision.wait) {
        const held = judged!.contents.held;
        await deps.records.markWaiting(
          orderId,
          recheckDue(held, now, since),
          now,
          waitCountsFrom(held, since),
        );
      }
      // A refused order that is then cancelled will never ship: its error marks are cleared once
      // (cancelling cannot be undone, so one mark job per order is enough).
      if (decision.clearFailureMarks) await deps.markOrder(orderId, 'cancelled_after_failure');
      return { outcome: 'skipped', code, reason };
    }
    case 'refuse_unchanged':
      await deps.counters.increment('unchanged_refusals_not_resent');
      deps.logger.info({ orderId }, 'order unchanged since it failed: not sent again');
      throw new UnchangedRefusalError(
        record?.reason ??
          'The order has not changed since it failed. Fix it in Shopify, or replay it.',
      );
    case 'refuse':
      throw await refuse(
        orderId,
        `Order ${order!.name} cannot be shipped as it is`,
        judged!.mapped?.ok === false ? judged!.mapped.errors : {},
        { fingerprint: judged!.fingerprint, seen: marksSeenOn(order!) },
        deps,
      );
    case 'send':
      return send(acting);
  }
}

async function send({ orderId, record, order: loaded, judged, takePlace, deps }: Acting) {
  const order = loaded!;
  const { contents, fingerprint } = judged!;
  const mapped = judged!.mapped as Extract<MappingResult, { ok: true }>;
  const slot = await takePlace();
  let result: Awaited<ReturnType<PartnerApi['createShipment']>>;
  try {
    result = await deps.partner.createShipment(mapped.request, {
      slot,
      // Only a request that actually leaves may have made a shipment we never hear of; one the
      // budget held back has not, and must not cost a look-up later.
      // The fingerprint of what left goes with it: a give-up is judged against it later.
      // So are the units it asks for: the fulfilment fulfils no others.
      onSending: () =>
        deps.records.markSending(
          orderId,
          encodeFingerprint(fingerprint),
          new Date(),
          encodeSentUnits(contents),
          encodeSettings(deps.settings.shipment, order),
        ),
    });
  } catch (error) {
    if (!(error instanceof PartnerValidationError)) throw error;
    if (onCreateAnswer('invalid', Boolean(record?.sentAt)) === 'refuse_forgetting_send') {
      const sentAt = (await deps.records.get(orderId))?.sentAt;
      if (sentAt) await deps.records.clearSent(orderId, sentAt);
    }
    throw await refuse(
      orderId,
      `The provider refused order ${order.name}`,
      error.fieldErrors,
      { fingerprint, seen: marksSeenOn(order) },
      deps,
    );
  }

  const { shipment } = result;
  const next = onCreateAnswer(result.created ? 'created' : 'existing', Boolean(record?.sentAt));
  await deps.records.markRegistered(
    orderId,
    {
      orderNumber: shipment.order_number,
      status: shipment.status,
      createdAt: shipment.created_at,
    },
    new Date(),
    next === 'record_made'
      ? {
          fingerprint: encodeFingerprint(fingerprint),
          units: encodeSentUnits(contents),
          settings: encodeSettings(deps.settings.shipment, order),
        }
      : undefined,
  );
  if (next === 'record_existing') {
    // The provider ships what the earlier request held (kept with the record, else this one's):
    // an order changed since is an edit after registration. Not followed yet, so not fulfilled
    // by the connector: its lines and weights still compare.
    const registered = await deps.records.get(orderId);
    if (registered)
      await compareWithSent(orderId, registered, order, { receiverOnly: false }, deps);
  }
  // Once recorded: a run cut off after this line is retried as "already registered".
  await deps.step?.(`POST /shipments → ${result.created ? 201 : 200} ${shipment.order_number}`);
  if (shipment.created_at) {
    const status = shipment.status ?? 'pending';
    await followShipment(orderId, shipment.order_number, status, shipment.created_at, deps, {
      orderCreatedAt: order.createdAt,
    });
  }
  await deps.counters.increment('shipments_registered');
  deps.logger.info(
    { orderId, orderNumber: shipment.order_number, created: result.created },
    result.created ? 'shipment registered' : 'shipment was already registered at the provider',
  );
  // What the order carries goes along, so the mark job writes only what it lacks, unread.
  await deps.markOrder(orderId, 'registered', marksSeenOn(order));
  return {
    outcome: 'registered' as const,
    orderNumber: shipment.order_number,
    created: result.created,
  };
}

/**
 * Hands a registered shipment to the status sync, which follows it from here on. A shipment the
 * sync follows already (it was listed first) is left as the sync knows it.
 */
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
  // The sync lists from the oldest open shipment's creation on: never later than the order's
  // own creation, which no shipment for it can precede, whatever the provider's clock says.
  const orderCreatedAtMs = options.orderCreatedAt ? Date.parse(options.orderCreatedAt) : Number.NaN;
  const createdAtMs = Number.isFinite(orderCreatedAtMs)
    ? Math.min(providerCreatedAtMs, orderCreatedAtMs)
    : providerCreatedAtMs;
  // A shipment the provider had already (a retry after a lost answer, a record lost) may have
  // moved on since it was created. Followed from its creation, so the sync sees what it did
  // meanwhile as a change: reads its tracking, fulfils it. Recorded as shipped, it never would.
  const movedOn = furthestStage(undefined, status) !== 'pending';
  await deps.tracking.track(reference, {
    orderNumber,
    status: movedOn ? 'pending' : status,
    updatedAt: movedOn ? createdAt : updatedAt,
    updatedAtMs: movedOn ? createdAtMs : updatedAtMs,
    stage: movedOn ? 'pending' : furthestStage(undefined, status),
    createdAtMs,
  });
}

/** Records and writes back a shipment the provider has for this order; its order number, or null. */
async function findShipmentAtProvider(
  orderId: string,
  order: StoreOrder | null,
  slot: BudgetSlot | undefined,
  deps: RegisterShipmentDeps,
): Promise<string | null> {
  let shipment: TrackingRecord;
  try {
    shipment = await deps.partner.getShipment(orderId, { priority: 'create', slot });
  } catch (error) {
    if (error instanceof PartnerNotFoundError) return null;
    throw error;
  }
  const createdAt = creationFromHistory(shipment);
  await deps.records.markRegistered(orderId, {
    orderNumber: shipment.order_number,
    status: shipment.status,
    createdAt,
  });
  await followShipment(orderId, shipment.order_number, shipment.status, createdAt, deps, {
    updatedAt: shipment.updated_at,
    ...(order ? { orderCreatedAt: order.createdAt } : {}),
  });
  await deps.counters.increment('shipments_registered');
  deps.logger.warn(
    { orderId, orderNumber: shipment.order_number },
    'found a shipment at the provider whose create answer was lost',
  );
  await deps.markOrder(orderId, 'registered', order ? marksSeenOn(order) : undefined);
  return shipment.order_number;
}

async function refuse(
  orderId: string,
  headline: string,
  fieldErrors: FieldErrors,
  order: { fingerprint: ShipmentFingerprint; seen: OrderMarksSeen },
  deps: RegisterShipmentDeps,
): Promise<OrderRefusedError> {
  const reason = `${headline}:\n${formatFieldErrors(fieldErrors)}\nFix the order in Shopify; it is retried when the order changes, or replay the job.`;
  await recordFailure(orderId, reason, deps, order);
  await deps.counters.increment('orders_refused');
  await deps.step?.(`refused, fields: ${Object.keys(fieldErrors).join(', ')}`);
  deps.logger.warn({ orderId, fields: Object.keys(fieldErrors) }, 'order refused');
  return new OrderRefusedError(reason, fieldErrors);
}

/**
 * Records why the order has no shipment, the fingerprint it is judged by later, and marks it in
 * Shopify when the reason is new (onFailure).
 */
export async function recordFailure(
  orderId: string,
  reason: string,
  deps: Pick<RegisterShipmentDeps, 'records' | 'markOrder'>,
  judged: { fingerprint?: ShipmentFingerprint; seen?: OrderMarksSeen; interrupted?: boolean } = {},
): Promise<void> {
  const next = onFailure(await deps.records.get(orderId), reason, {
    fingerprint: judged.fingerprint && encodeFingerprint(judged.fingerprint),
    interrupted: judged.interrupted,
  });
  await deps.records.markFailed(orderId, reason);
  await deps.records.recordFailedFingerprint(orderId, next.failedFingerprint);
  if (next.mark) await deps.markOrder(orderId, 'failed', judged.seen);
}
