import { gid, idFromGid } from './gid.js';
import type { FakeFulfillment, FakeFulfillmentOrder, FakeOrder, FakeTracking } from './model.js';
import { type FakeStoreState, FULFILLABLE, type Result, refuse } from './state.js';

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
 * fulfillmentCreate: every fulfillment order must be open and belong to one order; naming a
 * fulfillment order without lines fulfils all it has left.
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
      if (want.quantity < 1 || want.quantity > line.remainingQuantity) {
        return refuse(
          [...lineField, 'quantity'],
          `Quantity must be between 1 and ${line.remainingQuantity}.`,
        );
      }
      plan.push({ line, quantity: want.quantity });
    }
  }
  if (!owner || plan.length === 0) return refuse(base, 'Nothing left to fulfill.');

  for (const { line, quantity } of plan) line.remainingQuantity -= quantity;
  for (const fo of touched) {
    fo.status = fo.lineItems.every((l) => l.remainingQuantity === 0) ? 'CLOSED' : 'IN_PROGRESS';
  }
  const tracking = input.trackingInfo ? toTracking(input.trackingInfo) : null;
  const fulfillment: FakeFulfillment = {
    id: state.newId(),
    status: 'SUCCESS',
    createdAt: state.timestamp(),
    notifyCustomer: input.notifyCustomer ?? false,
    trackingInfo: tracking ? [tracking] : [],
    lineItems: plan.map(({ line, quantity }) => ({
      fulfillmentOrderLineItemId: line.id,
      quantity,
    })),
    events: [],
  };
  owner.fulfillments.push(fulfillment);
  owner.fulfillmentStatus = owner.fulfillmentOrders.some((fo) => FULFILLABLE.has(fo.status))
    ? 'PARTIALLY_FULFILLED'
    : 'FULFILLED';
  state.touch(owner);
  state.record({
    type: 'fulfillmentCreate',
    at: fulfillment.createdAt,
    orderId: owner.id,
    fulfillmentId: fulfillment.id,
    notifyCustomer: fulfillment.notifyCustomer,
    trackingInfo: tracking,
    lineItems: fulfillment.lineItems,
  });
  return { ok: true, value: { order: owner, fulfillment } };
}

/** fulfillmentTrackingInfoUpdate: replaces the tracking of a fulfillment. */
export function updateTracking(
  state: FakeStoreState,
  fulfillmentGid: string,
  input: TrackingInput,
  notifyCustomer: boolean,
): Result<FakeFulfillment> {
  const found = state.findFulfillment(fulfillmentGid);
  if (!found) return refuse(['fulfillmentId'], 'Fulfillment does not exist.');
  const urlProblem = trackingUrlProblem(input.url);
  if (urlProblem) return refuse(['trackingInfoInput', 'url'], urlProblem);
  const tracking = toTracking(input);
  found.fulfillment.trackingInfo = [tracking];
  state.touch(found.order);
  state.record({
    type: 'fulfillmentTrackingInfoUpdate',
    at: state.timestamp(),
    orderId: found.order.id,
    fulfillmentId: found.fulfillment.id,
    notifyCustomer,
    trackingInfo: tracking,
  });
  return { ok: true, value: found.fulfillment };
}

/** fulfillmentEventCreate: adds a carrier event (IN_TRANSIT, DELIVERED, …) to a fulfillment. */
export function createFulfillmentEvent(
  state: FakeStoreState,
  input: {
    fulfillmentId: string;
    status: string;
    happenedAt?: string | null;
    message?: string | null;
  },
): Result<FakeFulfillment['events'][number]> {
  const found = state.findFulfillment(input.fulfillmentId);
  if (!found) return refuse(['fulfillmentEvent', 'fulfillmentId'], 'Fulfillment does not exist.');
  const event = {
    id: state.newId(),
    status: input.status,
    happenedAt: input.happenedAt ?? state.timestamp(),
    message: input.message ?? null,
  };
  found.fulfillment.events.push(event);
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

function toTracking(t: TrackingInput): FakeTracking {
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
