import { ORDER_TAGS } from '../../src/domain/order-marks.js';
import { isHandedToCarrier } from '../../src/domain/shipment-progress.js';
import { trackingFor } from '../../src/domain/tracking-company.js';
import type { Logger } from '../../src/log.js';
import { JobRefusedError } from '../../src/queue/failure-policy.js';
import type { ShipmentTracking, TrackedShipment } from '../../src/records/shipment-tracking.js';
import type {
  FulfillmentOrderState,
  FulfillmentState,
  Fulfillments,
  OrderMarks,
} from '../../src/store/types.js';
import type { JobSettings } from '../context.js';

export interface FulfilDeps {
  store: Pick<
    Fulfillments,
    'readFulfillmentState' | 'createFulfillment' | 'updateFulfillmentTracking'
  > &
    Pick<OrderMarks, 'addOrderTags' | 'appendOrderNote'>;
  tracking: Pick<ShipmentTracking, 'get' | 'saveShopifySide' | 'clearShopifySide'>;
  settings: Pick<JobSettings, 'sync'>;
  logger: Logger;
  /**
   * Called before each Shopify write: throws once this run no longer holds the order's write
   * lock (a later run of the job took it over), so a run cut off and still alive writes nothing.
   */
  keepWriteLock(): Promise<void>;
}

export type FulfilOutcome =
  /** One fulfillment per location, tracking included. */
  | 'fulfilled'
  /** A fulfillment already carried this number (a retry after a lost answer, say). */
  | 'already-fulfilled'
  /** Our fulfillments got the provider's new number. */
  | 'tracking-updated'
  /** Fulfilled by staff or automatically without tracking: the tracking was added to it. */
  | 'tracking-added'
  /** Nothing of the order is left for the merchant to fulfil (closed, or another app's). */
  | 'nothing-to-fulfil'
  | 'stale';

/** Fulfillment order statuses the connector may fulfil. */
const FULFILLABLE = new Set(['OPEN', 'IN_PROGRESS']);
/** Held back in Shopify by someone: the connector never releases what it did not hold. */
const HELD_BACK = new Set(['ON_HOLD', 'SCHEDULED']);

/**
 * Fulfils the order of a shipment the provider handed to its carrier, with the tracking in the
 * same call (one email to the customer), one fulfillment per location. Shopify has no
 * idempotency key for fulfillments, so the order's fulfillments are read first: a number already
 * on one, or nothing left to fulfil, ends the job, which makes a retry after a lost answer safe.
 */
export async function fulfilShipment(reference: string, deps: FulfilDeps): Promise<FulfilOutcome> {
  const shipment = await deps.tracking.get(reference);
  const number = shipment?.trackingNumber;
  if (!shipment || !number || !isHandedToCarrier(shipment.stage)) return 'stale';
  if (shipment.fulfilledNumber === number) return 'already-fulfilled';

  const order = await deps.store.readFulfillmentState(reference);
  if (!order) {
    throw new JobRefusedError(
      `Order ${reference} is no longer in Shopify, so shipment ${shipment.orderNumber} cannot be recorded on it.`,
    );
  }
  const tracking = trackingFor(deps.settings.sync.tracking)(shipment.carrier ?? null, number);
  // A shipment found already with the carrier when first listed (before the connector was
  // installed, or its records lost): its customer was told long ago, by whatever shipped it.
  const adoptedShipped = shipment.adoptedAtStage && isHandedToCarrier(shipment.adoptedAtStage);
  const notifyCustomer = deps.settings.sync.notifyCustomer && !adoptedShipped;
  const live = order.fulfillments.filter((f) => f.status === 'SUCCESS');
  const record = (fulfillments: FulfillmentState[] | { id: string }[]) =>
    deps.tracking.saveShopifySide(reference, {
      fulfilledNumber: number,
      fulfillmentIds: fulfillments.map((f) => f.id).join(','),
    });

  // The provider re-labelled the parcel: our fulfillments get the new number, never a second one.
  const withOldNumber = shipment.fulfilledNumber
    ? live.filter((f) => carries(f, shipment.fulfilledNumber!))
    : [];
  if (withOldNumber.length > 0) {
    for (const f of withOldNumber) {
      await deps.keepWriteLock();
      await deps.store.updateFulfillmentTracking(f.id, tracking, { notifyCustomer });
    }
    await record(withOldNumber);
    return 'tracking-updated';
  }

  const ours = order.fulfillmentOrders.filter(isOurs);
  const created: { id: string }[] = [];
  for (const group of byLocation(ours.filter((fo) => FULFILLABLE.has(fo.status)))) {
    await deps.keepWriteLock();
    const fulfillment = await deps.store.createFulfillment({
      orderId: reference,
      fulfillmentOrderIds: group.map((fo) => fo.id),
      tracking,
      notifyCustomer,
    });
    created.push(fulfillment);
    // Saved after each location: a retry finds the others still open, and this one closed.
    await deps.tracking.saveShopifySide(reference, { fulfillmentIds: ids(shipment, created) });
  }

  const heldBack = ours.filter((fo) => HELD_BACK.has(fo.status) && fo.hasRemainingLines);
  if (heldBack.length > 0) await reportHeldBack(shipment, heldBack, deps);

  if (heldBack.length > 0) {
    // Failed, to be replayed once released: the replay fulfils what is left and nothing twice.
    const part = created.length > 0 ? 'The rest of the order was fulfilled; this part' : 'It';
    throw new JobRefusedError(
      `Order ${order.name} is ${describeHeldBack(heldBack)} in Shopify. ${part} was not fulfilled: the connector does not release holds it did not place. Release it in Shopify, then replay this job.`,
    );
  }
  const withNumber = live.filter((f) => carries(f, number));
  if (created.length > 0) {
    await record([...withNumber, ...created]);
    return 'fulfilled';
  }
  if (withNumber.length > 0) {
    await record(withNumber);
    return 'already-fulfilled';
  }
  // Fulfilled without tracking (by staff, or a store that fulfils automatically): add ours.
  const untracked = live.filter((f) => f.tracking.every((t) => !t.number));
  if (untracked.length > 0) {
    for (const f of untracked) {
      await deps.keepWriteLock();
      await deps.store.updateFulfillmentTracking(f.id, tracking, { notifyCustomer });
    }
    await record(untracked);
    return 'tracking-added';
  }
  deps.logger.info(
    { reference, fulfillmentOrders: order.fulfillmentOrders.map((fo) => fo.status) },
    'nothing left for the merchant to fulfil; the shipment is recorded without a fulfillment',
  );
  // Not `fulfilledNumber`: no fulfillment carries the number, and none is to be told delivered.
  await deps.tracking.saveShopifySide(reference, { unfulfillableNumber: number });
  return 'nothing-to-fulfil';
}

/** The merchant's own: fulfillable by this app, not a fulfillment service's or another app's. */
function isOurs(fo: FulfillmentOrderState): boolean {
  if (fo.location.isFulfillmentService) return false;
  if (HELD_BACK.has(fo.status)) return true;
  return fo.hasRemainingLines && fo.supportedActions.includes('CREATE_FULFILLMENT');
}

/** Shopify takes the fulfillment orders of one location per fulfillmentCreate. */
function byLocation(fulfillmentOrders: FulfillmentOrderState[]): FulfillmentOrderState[][] {
  const groups = new Map<string, FulfillmentOrderState[]>();
  for (const fo of fulfillmentOrders) {
    const key = fo.location.id ?? `name:${fo.location.name}`;
    groups.set(key, [...(groups.get(key) ?? []), fo]);
  }
  return [...groups.values()];
}

function carries(fulfillment: FulfillmentState, number: string): boolean {
  return fulfillment.tracking.some((t) => t.number === number);
}

function ids(shipment: TrackedShipment, created: { id: string }[]): string {
  const before = shipment.fulfillmentIds ? shipment.fulfillmentIds.split(',') : [];
  return [...new Set([...before, ...created.map((f) => f.id)])].join(',');
}

function describeHeldBack(heldBack: FulfillmentOrderState[]): string {
  return heldBack
    .map((fo) =>
      fo.status === 'ON_HOLD'
        ? `on hold${fo.holdReasons.length ? ` (${fo.holdReasons.join('; ')})` : ''}`
        : `scheduled${fo.fulfillAt ? ` for ${fo.fulfillAt}` : ''}`,
    )
    .join(' and ');
}

/** Tells staff on the order, once per reason, that the provider shipped what Shopify holds. */
async function reportHeldBack(
  shipment: TrackedShipment,
  heldBack: FulfillmentOrderState[],
  deps: FulfilDeps,
): Promise<void> {
  const reason = describeHeldBack(heldBack);
  if (shipment.fulfilBlockedReason === reason) return;
  await deps.keepWriteLock();
  await deps.store.addOrderTags(shipment.reference, [ORDER_TAGS.notFulfilled]);
  await deps.store.appendOrderNote(
    shipment.reference,
    `The provider shipped ${shipment.orderNumber} (tracking ${shipment.trackingNumber}), but part of the order is ${reason} in Shopify and was not fulfilled. Release it, then replay the fulfil-shipment job in the connector's board (Bull Board).`,
  );
  await deps.tracking.saveShopifySide(shipment.reference, { fulfilBlockedReason: reason });
}
