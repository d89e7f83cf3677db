import { ORDER_TAGS } from '../../src/domain/order-marks.js';
import {
  ANY_SENT_UNITS,
  collects,
  decodeSentLines,
  decodeSentUnits,
  describeLeftOut,
  type HeldUnits,
  holdsSentUnits,
  keepingSentFrom,
  namesLocation,
  type SentLine,
  shipmentContents,
  shipmentSentSinceMs,
  shippedItems,
} from '../../src/domain/shipment-contents.js';
import { decodeSettings } from '../../src/domain/shipment-fingerprint.js';
import { isHandedToCarrier } from '../../src/domain/shipment-progress.js';
import { trackingFor } from '../../src/domain/tracking-company.js';
import { FinalJobError } from '../../src/queue/failure-policy.js';
import type { TrackedShipment } from '../../src/records/shipment-tracking.js';
import { StoreUserError } from '../../src/store/errors.js';
import type { FulfillmentState, FulfillmentSummary } from '../../src/store/types.js';
import type { JobContext, JobSettings, QueueContext } from '../context.js';

export interface FulfilDeps extends Pick<QueueContext, 'logger'> {
  store: Pick<
    JobContext['store'],
    | 'readFulfillmentState'
    | 'createFulfillment'
    | 'updateFulfillmentTracking'
    | 'addOrderTags'
    | 'appendOrderNote'
    | 'getOrder'
  >;
  tracking: Pick<JobContext['tracking'], 'get' | 'saveShopifySide'>;
  /** Its sentUnits: what the provider was asked to ship. */
  records: Pick<JobContext['records'], 'get'>;
  settings: Pick<JobSettings, 'sync' | 'shipment'>;
  /** Throws once a later run took the order's write lock, so a cut-off run writes nothing. */
  keepWriteLock(): Promise<void>;
}

export type FulfilOutcome =
  | 'fulfilled'
  /** A fulfillment already carried this number (a retry after a lost answer). */
  | 'already-fulfilled'
  /** Our fulfillments got the provider's new number. */
  | 'tracking-updated'
  /** Fulfilled without tracking (by staff or automatically): the tracking was added. */
  | 'tracking-added'
  /** Nothing left for the merchant to fulfil (closed, or another app's). */
  | 'nothing-to-fulfil'
  | 'stale';

/**
 * Tracking goes in the same call (one email to the customer). Only units the provider was asked to
 * ship and still left in Shopify are fulfilled. Shopify has no idempotency key for fulfillments and
 * documents nothing for asking more than a line has left (users report the request refused whole),
 * so each fulfillment's units are checked. After a refusal, a short one or an unknown outcome, the
 * order is read first, which makes a retry after a lost answer safe. `read`: that second pass.
 */
export async function fulfilShipment(
  reference: string,
  deps: FulfilDeps,
  read = false,
): Promise<FulfilOutcome> {
  const shipment = await deps.tracking.get(reference);
  const number = shipment?.trackingNumber;
  if (!shipment || !number || !isHandedToCarrier(shipment.stage)) return 'stale';
  if (shipment.fulfilledNumber === number) return 'already-fulfilled';
  if (read) return fulfilAfterReading(shipment, number, deps);
  if (await fulfilAsSent(shipment, number, deps)) return 'fulfilled';
  return fulfilShipment(reference, deps, true);
}

function telling(shipment: TrackedShipment, number: string, deps: FulfilDeps) {
  const tracking = trackingFor(deps.settings.sync.tracking)(shipment.carrier ?? null, number);
  // Already with the carrier when first listed: its customer was told long ago.
  const adoptedShipped = shipment.adoptedAtStage && isHandedToCarrier(shipment.adoptedAtStage);
  return { tracking, notifyCustomer: deps.settings.sync.notifyCustomer && !adoptedShipped };
}

/**
 * One fulfillment per group, each saved at once: a retry finds the others still open, and the read
 * after a refusal sees them. `asSent`: a refusal or a short one ends it with undefined, to be read.
 */
async function createEach(
  shipment: TrackedShipment,
  groups: readonly (readonly FulfilledLine[])[],
  number: string,
  deps: FulfilDeps,
  asSent: boolean,
): Promise<{ id: string }[] | undefined> {
  const { reference } = shipment;
  const told = telling(shipment, number, deps);
  const ids = new Set(shipment.fulfillmentIds ? shipment.fulfillmentIds.split(',') : []);
  const created: { id: string }[] = [];
  for (const lines of groups) {
    await deps.keepWriteLock();
    const fulfillment = await deps.store
      .createFulfillment({ orderId: reference, lineItems: lines.map(fulfillmentLine), ...told })
      .catch((error) => {
        if (!asSent || !(error instanceof StoreUserError)) throw error;
        deps.logger.info(
          { reference, err: error.message },
          'Shopify refused to fulfil the units as sent; reading the order',
        );
      });
    if (!fulfillment) return undefined;
    created.push(fulfillment);
    ids.add(fulfillment.id);
    await deps.tracking.saveShopifySide(reference, { fulfillmentIds: [...ids].join(',') });
    if (asSent && !holdsAll(fulfillment, lines)) {
      deps.logger.info(
        { reference, fulfillmentId: fulfillment.id },
        'Shopify fulfilled less than was asked, or did not say what; reading the order',
      );
      return undefined;
    }
  }
  return created;
}

/** First attempt, unread; false when it cannot be tried or Shopify refused or fell short. */
async function fulfilAsSent(shipment: TrackedShipment, number: string, deps: FulfilDeps) {
  const untouched =
    !shipment.fulfilStartedAt &&
    !shipment.fulfilledNumber &&
    !shipment.fulfillmentIds &&
    !shipment.unfulfillableNumber &&
    !shipment.fulfilBlockedReason;
  if (!untouched) return false;
  const sent = decodeSentLines((await deps.records.get(shipment.reference))?.sentUnits);
  if (!sent || sent.length === 0) return false;
  const byLocation = new Map<string, typeof sent>();
  for (const line of sent) {
    const key = line.locationId ?? line.fulfillmentOrderId;
    byLocation.set(key, [...(byLocation.get(key) ?? []), line]);
  }
  // Before the first request: Shopify has no idempotency key, so a retry after a lost answer must
  // read the order rather than create again.
  await deps.tracking.saveShopifySide(shipment.reference, {
    fulfilStartedAt: new Date().toISOString(),
  });
  const created = await createEach(shipment, [...byLocation.values()], number, deps, true);
  if (!created) return false;
  await deps.tracking.saveShopifySide(shipment.reference, {
    fulfilledNumber: number,
    fulfillmentIds: created.map((f) => f.id).join(','),
  });
  return true;
}

/** Only the fields Shopify takes. */
function fulfillmentLine(
  line: Pick<SentLine, 'fulfillmentOrderId' | 'fulfillmentOrderLineItemId' | 'quantity'>,
) {
  const { fulfillmentOrderId, fulfillmentOrderLineItemId, quantity } = line;
  return { fulfillmentOrderId, fulfillmentOrderLineItemId, quantity };
}

function unitsByItem(units: readonly { lineItemId: string; quantity: number }[]) {
  const sums = new Map<string, number>();
  for (const unit of units)
    sums.set(unit.lineItemId, (sums.get(unit.lineItemId) ?? 0) + unit.quantity);
  return sums;
}

type FulfilledLine = Parameters<typeof fulfillmentLine>[0] & Pick<SentLine, 'lineItemId'>;

function holdsAll(fulfillment: FulfillmentSummary, lines: readonly FulfilledLine[]): boolean {
  if (!fulfillment.units) return false;
  const held = unitsByItem(fulfillment.units);
  return [...unitsByItem(lines)].every(([id, quantity]) => (held.get(id) ?? 0) >= quantity);
}

async function fulfilAfterReading(shipment: TrackedShipment, number: string, deps: FulfilDeps) {
  const { reference } = shipment;
  const order = await deps.store.readFulfillmentState(reference);
  if (!order) {
    throw new FinalJobError(
      `Order ${reference} is no longer in Shopify, so shipment ${shipment.orderNumber} cannot be recorded on it.`,
    );
  }
  const live = order.fulfillments.filter((f) => f.status === 'SUCCESS');
  const record = (fulfillments: FulfillmentState[] | { id: string }[]) =>
    deps.tracking.saveShopifySide(reference, {
      fulfilledNumber: number,
      fulfillmentIds: fulfillments.map((f) => f.id).join(','),
    });
  const addTracking = async (fulfillments: FulfillmentState[]) => {
    const { tracking, notifyCustomer } = telling(shipment, number, deps);
    for (const f of fulfillments) {
      await deps.keepWriteLock();
      await deps.store.updateFulfillmentTracking(f.id, tracking, { notifyCustomer });
    }
    await record(fulfillments);
  };

  // The provider re-labelled the parcel: our fulfillments get the new number, never a second one.
  const withOldNumber = shipment.fulfilledNumber
    ? live.filter((f) => carries(f, shipment.fulfilledNumber!))
    : [];
  if (withOldNumber.length > 0) {
    await addTracking(withOldNumber);
    return 'tracking-updated';
  }

  // Made for this shipment already (recorded, or carrying its number): never owed again.
  const recorded = new Set(shipment.fulfillmentIds?.split(',') ?? []);
  const ours = live.filter((f) => recorded.has(f.id) || carries(f, number));
  const { groups, heldBack, untracked } = await whatToFulfil(
    shipment,
    order.name,
    ours,
    live,
    deps,
  );
  const created = (await createEach(shipment, groups, number, deps, false))!;

  if (heldBack.length > 0) {
    await reportHeldBack(shipment, heldBack, deps);
    // Failed, to be replayed once released: the replay fulfils what is left and nothing twice.
    const part = created.length > 0 ? 'The rest of the order was fulfilled; this part' : 'It';
    throw new FinalJobError(
      `Order ${order.name}: ${describeLeftOut(heldBack)} in Shopify. ${part} was not fulfilled: the connector does not release holds it did not place. Release it in Shopify, then replay this job.`,
    );
  }
  const withNumber = live.filter((f) => carries(f, number));
  if (created.length > 0 || withNumber.length > 0) {
    await record([...withNumber, ...created]);
    return created.length > 0 ? 'fulfilled' : 'already-fulfilled';
  }
  // Fulfilled without tracking since the send (staff, or automatic) with sent units: ours is
  // added, never to a pickup, a digital line or another location's parcel.
  if (untracked.length > 0) {
    await addTracking(untracked);
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

/**
 * One group per location (Shopify takes one per fulfillmentCreate). As of the send: a later
 * delivery (a subscription's next box) was never part of it. `heldBack`: sent units Shopify holds.
 */
async function whatToFulfil(
  shipment: TrackedShipment,
  orderName: string,
  fulfilled: readonly FulfillmentState[],
  live: readonly FulfillmentState[],
  deps: FulfilDeps,
) {
  const { reference } = shipment;
  const order = await deps.store.getOrder(reference);
  if (!order) {
    throw new FinalJobError(
      `Order ${orderName} is no longer in Shopify, so it cannot be fulfilled.`,
    );
  }
  const record = await deps.records.get(reference);
  const sent = decodeSentUnits(record?.sentUnits);
  const sentLines = decodeSentLines(record?.sentUnits);
  const sentSettings = decodeSettings(record?.sentSettings);
  const sentSinceMs = shipmentSentSinceMs(record, shipment.createdAtMs);
  // Without the lines sent from, only what is still scheduled is a later delivery.
  const when = sentLines ? { sentAt: new Date(sentSinceMs) } : { now: new Date() };
  const asSent = sentLines ? keepingSentFrom(order, sentLines) : order;
  const contents = shipmentContents(asSent, deps.settings.shipment, when);
  if (sent) {
    // Sent units are fulfilled whatever today's settings say; those they still take come first.
    const any = shipmentContents(asSent, ANY_SENT_UNITS, when);
    const taken = new Set(contents.lines.map((line) => line.fulfillmentOrderLineItemId));
    contents.lines.push(...any.lines.filter((l) => !taken.has(l.fulfillmentOrderLineItemId)));
    contents.held = any.held;
  }
  // Without kept units, what the provider ships is taken to be the contents as they are now.
  const asked = sent ?? new Map(shippedItems(contents).map((item) => [item.id, item.quantity]));
  const ours = new Set(fulfilled.map((f) => f.id));
  const sentLocations = (sentLines ?? []).flatMap((line) => line.locationId ?? []);
  const collectedAt =
    sentLocations.length > 0
      ? sentLocations
      : (sentSettings ?? deps.settings.shipment).collectFromLocations;
  const left = new Map(asked);
  for (const f of fulfilled) deduct(left, f.lineItems);
  // Only while sent units are owed: a later box staff fulfilled must not get this tracking.
  const owed = new Map(left);
  const untracked: FulfillmentState[] = [];
  for (const f of live) {
    if (ours.has(f.id) || f.tracking.some((t) => t.number)) continue;
    if (!holdsSentUnits(f, asked, collectedAt, sentSinceMs)) continue;
    if (!f.lineItems.some((line) => (owed.get(line.lineItemId) ?? 0) > 0)) continue;
    untracked.push(f);
    deduct(owed, f.lineItems);
  }
  const byStaff = unitsByItem(untracked.flatMap((f) => f.lineItems));
  const sentFrom = new Set((sentLines ?? []).map((line) => line.fulfillmentOrderId));
  const sentItems = new Set((sentLines ?? []).map((line) => line.lineItemId));
  // On a sent fulfillment order (a whole move keeps its id), or a sent line item at a location sent
  // or collected from (a partial move, or the rest of a partly fulfilled one, gets a new id). Never
  // elsewhere: the provider was not asked to ship it.
  const wasSent = (units: Pick<HeldUnits, 'fulfillmentOrderId' | 'lineItemId' | 'location'>) =>
    !sentLines ||
    sentFrom.has(units.fulfillmentOrderId) ||
    (sentItems.has(units.lineItemId) &&
      (sentLocations.some((id) => namesLocation(id, units.location)) ||
        (sentSettings !== null && collects(sentSettings.collectFromLocations, units.location))));
  // Units left on a fulfillment order they were sent from are the shipment's whatever else staff
  // fulfilled; elsewhere, units fulfilled without tracking since the send count as sent first.
  const take = (units: { lineItemId: string; fulfillmentOrderId: string }, quantity: number) => {
    if (!sent) return quantity;
    const rest = left.get(units.lineItemId) ?? 0;
    const free = sentFrom.has(units.fulfillmentOrderId)
      ? rest
      : rest - (byStaff.get(units.lineItemId) ?? 0);
    const taken = Math.max(0, Math.min(free, quantity));
    left.set(units.lineItemId, rest - taken);
    return taken;
  };

  const heldBack: HeldUnits[] = [];
  const lines = contents.lines.map((line) => ({ ...line, lineItemId: line.item.id }));
  const groups = new Map<string, typeof lines>();
  const onSent = (units: { fulfillmentOrderId: string }) => sentFrom.has(units.fulfillmentOrderId);
  for (const first of [true, false]) {
    for (const line of lines) {
      if (onSent(line) !== first || !wasSent(line)) continue;
      const quantity = take(line, line.quantity);
      if (quantity === 0) continue;
      const key = line.location.id ?? `name:${line.location.name}`;
      groups.set(key, [...(groups.get(key) ?? []), { ...line, quantity }]);
    }
    for (const held of contents.held) {
      if (onSent(held) !== first || !wasSent(held)) continue;
      if (take(held, held.quantity) > 0) heldBack.push(held);
    }
  }
  return { groups: [...groups.values()], heldBack, untracked };
}

function deduct(
  owed: Map<string, number>,
  lines: readonly FulfillmentState['lineItems'][number][],
) {
  for (const line of lines) {
    const rest = owed.get(line.lineItemId);
    if (rest !== undefined) owed.set(line.lineItemId, Math.max(0, rest - line.quantity));
  }
}

function carries(fulfillment: FulfillmentState, number: string): boolean {
  return fulfillment.tracking.some((t) => t.number === number);
}

/** Tells staff on the order, once per reason, that the provider shipped what Shopify holds. */
async function reportHeldBack(shipment: TrackedShipment, heldBack: HeldUnits[], deps: FulfilDeps) {
  const reason = describeLeftOut(heldBack);
  if (shipment.fulfilBlockedReason === reason) return;
  await deps.keepWriteLock();
  await deps.store.addOrderTags(shipment.reference, [ORDER_TAGS.notFulfilled]);
  await deps.store.appendOrderNote(
    shipment.reference,
    `The provider shipped ${shipment.orderNumber} (tracking ${shipment.trackingNumber}), but part of the order is held back in Shopify (${reason}) and was not fulfilled. Release it, then replay the fulfil-shipment job in the connector's board (Bull Board).`,
  );
  await deps.tracking.saveShopifySide(shipment.reference, { fulfilBlockedReason: reason });
}
