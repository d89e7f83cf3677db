import { gid, idFromGid } from './gid.js';
import type {
  FakeFulfillment,
  FakeFulfillmentEvent,
  FakeFulfillmentOrder,
  FakeOrder,
  FakeTracking,
} from './model.js';
import {
  type FakeStoreState,
  FULFILLABLE,
  orderFulfillmentStatus,
  type Result,
  refuse,
} from './state.js';

/** The Admin mutations on fulfillments: fulfillmentCreate, tracking updates, events. */

type TrackingInput = { company?: string | null; number?: string | null; url?: string | null };

export interface FulfillmentInput {
  lineItemsByFulfillmentOrder: {
    fulfillmentOrderId: string;
    fulfillmentOrderLineItems?: { id: string; quantity: number }[] | null;
  }[];
  notifyCustomer?: boolean | null;
  trackingInfo?: TrackingInput | null;
}

/**
 * fulfillmentCreate: every fulfillment order must be open, belong to one order and be assigned
 * to one of the merchant's locations, the same for all; naming a fulfillment order without lines
 * fulfils all it has left.
 */
export function createFulfillment(
  state: FakeStoreState,
  input: FulfillmentInput,
): Result<{ order: FakeOrder; fulfillment: FakeFulfillment }> {
  const base = ['fulfillment', 'lineItemsByFulfillmentOrder'];
  if (input.lineItemsByFulfillmentOrder.length === 0) {
    return refuse(base, 'Line items must not be empty.');
  }
  const urlProblem = trackingUrlProblem(input.trackingInfo?.url);
  if (urlProblem) return refuse(['fulfillment', 'trackingInfo', 'url'], urlProblem);

  let owner: FakeOrder | undefined;
  const plan: { line: FakeFulfillmentOrder['lineItems'][number]; quantity: number }[] = [];
  const touched: FakeFulfillmentOrder[] = [];
  for (const [index, group] of input.lineItemsByFulfillmentOrder.entries()) {
    const field = [...base, String(index), 'fulfillmentOrderId'];
    const found = state.findFulfillmentOrder(group.fulfillmentOrderId);
    if (!found) return refuse(field, 'Fulfillment order does not exist.');
    if (owner && owner !== found.order) {
      return refuse(field, 'Fulfillment orders must belong to the same order.');
    }
    owner = found.order;
    const fo = found.fulfillmentOrder;
    if (!FULFILLABLE.has(fo.status)) {
      return refuse(
        field,
        `Fulfillment order ${group.fulfillmentOrderId} has an unfulfillable status= ${fo.status.toLowerCase()}.`,
      );
    }
    if (touched.length > 0 && touched[0]!.locationId !== fo.locationId) {
      return refuse(base, 'All fulfillment orders must be assigned to a single location.');
    }
    // Since 2024-10 an order management app cannot fulfil what a fulfillment service holds.
    if (state.locationById(fo.locationId).isFulfillmentService || !fo.fulfilmentOffered) {
      return refuse(field, 'Cannot create fulfillment for the fulfillment order.');
    }
    touched.push(fo);
    const wanted =
      group.fulfillmentOrderLineItems ??
      fo.lineItems
        .filter((l) => l.remainingQuantity > 0)
        .map((l) => ({ id: gid('FulfillmentOrderLineItem', l.id), quantity: l.remainingQuantity }));
    for (const [lineIndex, want] of wanted.entries()) {
      const lineField = [...base, String(index), 'fulfillmentOrderLineItems', String(lineIndex)];
      const line = fo.lineItems.find(
        (l) => l.id === idFromGid('FulfillmentOrderLineItem', want.id),
      );
      if (!line) return refuse([...lineField, 'id'], 'Fulfillment order line item does not exist.');
      // More than a line has left: Shopify's reference is silent on it. Users report a
      // userError on the whole input and nothing fulfilled (the default); the other answer a
      // client must survive is that what is left is fulfilled (state.overQuantity).
      if (want.quantity < 1) {
        return refuse(['fulfillment'], 'Invalid fulfillment order line item quantity requested.');
      }
      if (want.quantity > line.remainingQuantity && state.overQuantity === 'refuse') {
        return refuse(['fulfillment'], 'Invalid fulfillment order line item quantity requested.');
      }
      const quantity = Math.min(want.quantity, line.remainingQuantity);
      if (quantity > 0) plan.push({ line, quantity });
    }
  }
  if (!owner || plan.length === 0) return refuse(base, 'Nothing left to fulfill.');
  touched.splice(
    0,
    touched.length,
    ...touched.filter((fo) => plan.some(({ line }) => fo.lineItems.includes(line))),
  );

  const fulfillment = applyFulfillment(state, owner, plan, touched, {
    tracking: input.trackingInfo ? toTracking(input.trackingInfo) : null,
    notifyCustomer: input.notifyCustomer ?? false,
    by: 'app',
  });
  state.record({
    type: 'fulfillmentCreate',
    at: fulfillment.createdAt,
    orderId: owner.id,
    fulfillmentId: fulfillment.id,
    notifyCustomer: fulfillment.notifyCustomer,
    trackingInfo: fulfillment.trackingInfo[0] ?? null,
    lineItems: fulfillment.lineItems,
  });
  return { ok: true, value: { order: owner, fulfillment } };
}

/**
 * Ships `plan` from `touched` (fulfillment orders of one order and location): lowers what is
 * left, closes what is done, and sends the shipping confirmation when asked. Used by the
 * Admin API and by staff in the admin.
 */
export function applyFulfillment(
  state: FakeStoreState,
  order: FakeOrder,
  plan: { line: FakeFulfillmentOrder['lineItems'][number]; quantity: number }[],
  touched: FakeFulfillmentOrder[],
  options: { tracking: FakeTracking | null; notifyCustomer: boolean; by: 'app' | 'staff' },
): FakeFulfillment {
  for (const { line, quantity } of plan) line.remainingQuantity -= quantity;
  for (const fo of touched) {
    fo.status = fo.lineItems.every((l) => l.remainingQuantity === 0) ? 'CLOSED' : 'IN_PROGRESS';
  }
  const now = state.timestamp();
  const { tracking } = options;
  const fulfillment: FakeFulfillment = {
    id: state.newId(),
    status: 'SUCCESS',
    // The admin shows "Marked as fulfilled" for a fulfillment without a tracking number.
    displayStatus: tracking?.number ? 'FULFILLED' : 'MARKED_AS_FULFILLED',
    createdAt: now,
    updatedAt: now,
    deliveredAt: null,
    inTransitAt: null,
    locationId: touched[0]!.locationId,
    fulfillmentOrderIds: touched.map((fo) => fo.id),
    createdBy: options.by,
    notifyCustomer: options.notifyCustomer,
    trackingInfo: tracking ? [tracking] : [],
    lineItems: plan.map(({ line, quantity }) => ({
      fulfillmentOrderLineItemId: line.id,
      quantity,
    })),
    events: [],
  };
  order.fulfillments.push(fulfillment);
  order.fulfillmentStatus = orderFulfillmentStatus(order);
  state.touch(order);
  if (options.notifyCustomer) {
    state.notify({
      orderId: order.id,
      fulfillmentId: fulfillment.id,
      kind: 'shipping_confirmation',
      by: options.by,
    });
  }
  return fulfillment;
}

/** fulfillmentTrackingInfoUpdate: replaces the tracking of a fulfillment. */
export function updateTracking(
  state: FakeStoreState,
  fulfillmentGid: string,
  input: TrackingInput,
  notifyCustomer: boolean,
): Result<{ order: FakeOrder; fulfillment: FakeFulfillment }> {
  const found = state.findFulfillment(fulfillmentGid);
  if (!found) return refuse(['fulfillmentId'], 'Fulfillment does not exist.');
  const urlProblem = trackingUrlProblem(input.url);
  if (urlProblem) return refuse(['trackingInfoInput', 'url'], urlProblem);
  const tracking = toTracking(input);
  const { fulfillment } = found;
  fulfillment.trackingInfo = [tracking];
  if (fulfillment.displayStatus === 'MARKED_AS_FULFILLED' && tracking.number) {
    fulfillment.displayStatus = 'FULFILLED';
  }
  fulfillment.updatedAt = state.timestamp();
  state.touch(found.order);
  if (notifyCustomer) {
    state.notify({
      orderId: found.order.id,
      fulfillmentId: fulfillment.id,
      kind: 'shipping_update',
      by: 'app',
    });
  }
  state.record({
    type: 'fulfillmentTrackingInfoUpdate',
    at: state.timestamp(),
    orderId: found.order.id,
    fulfillmentId: found.fulfillment.id,
    notifyCustomer,
    trackingInfo: tracking,
  });
  return { ok: true, value: found };
}

/**
 * fulfillmentEventCreate: adds a carrier event (IN_TRANSIT, DELIVERED, …) to a fulfillment; the
 * fulfillment's displayStatus becomes the event's status, and DELIVERED / IN_TRANSIT set
 * deliveredAt / inTransitAt.
 */
export function createFulfillmentEvent(
  state: FakeStoreState,
  input: {
    fulfillmentId: string;
    status: string;
    happenedAt?: string | null;
    message?: string | null;
  },
): Result<FakeFulfillmentEvent> {
  const found = state.findFulfillment(input.fulfillmentId);
  if (!found) return refuse(['fulfillmentEvent', 'fulfillmentId'], 'Fulfillment does not exist.');
  const event: FakeFulfillmentEvent = {
    id: state.newId(),
    status: input.status,
    happenedAt: input.happenedAt ?? state.timestamp(),
    createdAt: state.timestamp(),
    message: input.message ?? null,
  };
  const { fulfillment } = found;
  fulfillment.events.push(event);
  fulfillment.displayStatus = event.status;
  if (event.status === 'DELIVERED') fulfillment.deliveredAt = event.happenedAt;
  if (event.status === 'IN_TRANSIT') fulfillment.inTransitAt ??= event.happenedAt;
  fulfillment.updatedAt = event.createdAt;
  state.touch(found.order);
  state.record({
    type: 'fulfillmentEventCreate',
    at: state.timestamp(),
    orderId: found.order.id,
    fulfillmentId: found.fulfillment.id,
    status: event.status,
    happenedAt: event.happenedAt,
    message: event.message,
  });
  return { ok: true, value: event };
}

export function toTracking(t: TrackingInput): FakeTracking {
  return { company: t.company ?? null, number: t.number ?? null, url: t.url ?? null };
}

function trackingUrlProblem(url: string | null | undefined): string | null {
  if (url === null || url === undefined) return null;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? null : 'Url is invalid.';
  } catch {
    return 'Url is invalid.';
  }
}
