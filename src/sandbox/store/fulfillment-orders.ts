import { applyFulfillment } from './fulfillment-writes.js';
import {
  type FakeFulfillment,
  type FakeFulfillmentOrder,
  type FakeOrder,
  type FakeStaffFulfil,
  holdInput,
  staffFulfilSchema,
} from './model.js';
import {
  type FakeStoreState,
  type FakeUserError,
  FULFILLABLE,
  orderFulfillmentStatus,
  type Result,
} from './state.js';

/**
 * What can be done with a fulfillment order, as Shopify tells a merchant (order management) app
 * in FulfillmentOrder.supportedActions; and what staff do with one in the admin.
 */

type Action =
  | 'CREATE_FULFILLMENT'
  | 'REPORT_PROGRESS'
  | 'HOLD'
  | 'MOVE'
  | 'RELEASE_HOLD'
  | 'MARK_AS_OPEN'
  | 'REQUEST_FULFILLMENT'
  | 'REQUEST_CANCELLATION';

/**
 * At the merchant's own locations the app fulfils (CREATE_FULFILLMENT) and, from 2026-04, reports
 * progress on OPEN and IN_PROGRESS ones; at a fulfillment service's location it can only request
 * fulfilment from that service. Held ones can be released, scheduled ones opened; closed,
 * cancelled and incomplete ones support nothing. An open one Shopify offers no fulfilment of
 * (fulfilmentOffered false) supports nothing either, until it is offered again.
 */
export function supportedActions(state: FakeStoreState, fo: FakeFulfillmentOrder): Action[] {
  const service = state.locationById(fo.locationId).isFulfillmentService;
  switch (fo.status) {
    case 'OPEN':
      if (!fo.fulfilmentOffered) return [];
      return service
        ? ['REQUEST_FULFILLMENT', 'HOLD', 'MOVE']
        : ['CREATE_FULFILLMENT', 'REPORT_PROGRESS', 'HOLD', 'MOVE'];
    case 'IN_PROGRESS': {
      if (service) return ['REQUEST_CANCELLATION'];
      // Since 2026-01 fulfillmentOrderOpen reopens one that is in progress only by a report.
      const onlyReported = fo.lineItems.every((l) => l.remainingQuantity === l.totalQuantity);
      return [
        'CREATE_FULFILLMENT',
        'REPORT_PROGRESS',
        'HOLD',
        ...(onlyReported && fo.progressReports.length > 0 ? (['MARK_AS_OPEN'] as const) : []),
      ];
    }
    case 'ON_HOLD':
      return ['RELEASE_HOLD'];
    case 'SCHEDULED':
      return ['MARK_AS_OPEN'];
    default:
      return [];
  }
}

type ReportProgressError = FakeUserError & { code: string };

/**
 * fulfillmentOrderReportProgress for a merchant app: only on OPEN or IN_PROGRESS fulfillment
 * orders at the merchant's locations; an OPEN one becomes IN_PROGRESS.
 */
export function reportProgress(
  state: FakeStoreState,
  id: string,
  reasonNotes: string | null,
): { ok: true; value: FakeFulfillmentOrder } | { ok: false; userErrors: ReportProgressError[] } {
  const fail = (message: string, code: string) => ({
    ok: false as const,
    userErrors: [{ field: ['id'], message, code }],
  });
  const found = state.findFulfillmentOrder(id);
  if (!found) return fail('Fulfillment order does not exist.', 'FULFILLMENT_ORDER_NOT_FOUND');
  const { order, fulfillmentOrder: fo } = found;
  if (state.locationById(fo.locationId).isFulfillmentService) {
    return fail(
      'The fulfillment order is not assigned to the requesting fulfillment service.',
      'FULFILLMENT_ORDER_INVALID_FULFILLMENT_SERVICE_OWNERSHIP',
    );
  }
  if (!FULFILLABLE.has(fo.status)) {
    return fail(
      `Cannot report progress on a fulfillment order with status ${fo.status.toLowerCase()}.`,
      'FULFILLMENT_ORDER_STATUS_INVALID',
    );
  }
  if (!fo.fulfilmentOffered) {
    return fail(
      'The fulfillment order does not support this action now.',
      'FULFILLMENT_ORDER_UNSUPPORTED_ACTION',
    );
  }
  if (reasonNotes !== null && reasonNotes.length > 256) {
    return {
      ok: false,
      userErrors: [
        {
          field: ['progressReport', 'reasonNotes'],
          message: 'Reason notes is too long (maximum is 256 characters)',
          code: 'FULFILLMENT_ORDER_UNSUPPORTED_ACTION',
        },
      ],
    };
  }
  const initialStatus = fo.status;
  fo.status = 'IN_PROGRESS';
  fo.progressReports.push({ at: state.timestamp(), reasonNotes });
  order.fulfillmentStatus = orderFulfillmentStatus(order);
  state.touch(order);
  state.record({
    type: 'fulfillmentOrderReportProgress',
    at: state.timestamp(),
    orderId: order.id,
    fulfillmentOrderId: fo.id,
    reasonNotes,
    initialStatus,
  });
  return { ok: true, value: fo };
}

/** Shopify starts or stops offering the app fulfilment of an open fulfillment order. */
export function offerFulfilment(
  state: FakeStoreState,
  id: string,
  offered: boolean,
): Result<FakeFulfillmentOrder> {
  const found = state.findFulfillmentOrder(gidOf(id));
  if (!found) return refused(`Fulfillment order ${id} does not exist`);
  // Like a release, nothing documents a change of the order for it: updated_at stays.
  found.fulfillmentOrder.fulfilmentOffered = offered;
  return { ok: true, value: found.fulfillmentOrder };
}

/**
 * Staff "Fulfill early" a scheduled fulfillment order in the admin (fulfillmentOrderOpen): it is
 * OPEN ahead of its fulfillAt, left as it was (Shopify documents no change of it).
 */
export function openEarly(state: FakeStoreState, id: string): Result<FakeFulfillmentOrder> {
  const found = state.findFulfillmentOrder(gidOf(id));
  if (!found) return refused(`Fulfillment order ${id} does not exist`);
  const { order, fulfillmentOrder: fo } = found;
  if (fo.status !== 'SCHEDULED') return refused(`Fulfillment order ${id} is not scheduled`);
  // Like a release, nothing documents a change of the order for it: updated_at stays.
  fo.status = 'OPEN';
  order.fulfillmentStatus = orderFulfillmentStatus(order);
  return { ok: true, value: fo };
}

/** Staff put a fulfillment order on hold in the admin (OPEN or IN_PROGRESS only). */
export function holdFulfillmentOrder(
  state: FakeStoreState,
  id: string,
  hold: unknown,
): Result<FakeFulfillmentOrder> {
  const found = state.findFulfillmentOrder(gidOf(id));
  if (!found) return refused(`Fulfillment order ${id} does not exist`);
  const { order, fulfillmentOrder: fo } = found;
  if (!FULFILLABLE.has(fo.status) && fo.status !== 'ON_HOLD') {
    return refused(`Fulfillment order ${id} is ${fo.status} and cannot be held`);
  }
  fo.holds.push({ id: state.newId(), ...holdInput.parse(hold ?? {}), heldByApp: false });
  fo.status = 'ON_HOLD';
  order.fulfillmentStatus = orderFulfillmentStatus(order);
  state.touch(order);
  return { ok: true, value: fo };
}

/**
 * Staff move a fulfillment order's units to another location (fulfillmentOrderMove). As Shopify
 * documents it: refused for a closed fulfillment order, or one with progress reported; every
 * line left and nothing of it fulfilled yet, the fulfillment order itself is moved (same id, new
 * location); else the units moved (`lines`, by title, or all left) go to a new fulfillment order
 * at the destination, and the original keeps the rest (closed once nothing of it is left).
 */
export function moveFulfillmentOrder(
  state: FakeStoreState,
  id: string,
  locationName: string,
  lines?: { title: string; quantity: number }[],
): Result<FakeFulfillmentOrder> {
  const found = state.findFulfillmentOrder(gidOf(id));
  if (!found) return refused(`Fulfillment order ${id} does not exist`);
  const { order, fulfillmentOrder: fo } = found;
  if (!FULFILLABLE.has(fo.status)) return refused(`Fulfillment order ${id} is ${fo.status}`);
  if (fo.progressReports.length > 0) {
    return refused(`Fulfillment order ${id} has had progress reported; mark it open first`);
  }
  const destination = state.location(locationName);
  const titleOf = (lineItemId: string) =>
    order.lineItems.find((item) => item.id === lineItemId)?.title ?? '';
  const moving = (line: FakeFulfillmentOrder['lineItems'][number]) => {
    if (!lines) return line.remainingQuantity;
    const wanted = lines.find((l) => l.title === titleOf(line.lineItemId))?.quantity ?? 0;
    return Math.min(wanted, line.remainingQuantity);
  };
  const whole = fo.lineItems.every(
    (line) => line.remainingQuantity === line.totalQuantity && moving(line) === line.totalQuantity,
  );
  if (whole) {
    fo.locationId = destination.id;
    state.touch(order);
    return { ok: true, value: fo };
  }
  const moved: FakeFulfillmentOrder = {
    ...structuredClone(fo),
    id: state.newId(),
    status: 'OPEN',
    locationId: destination.id,
    progressReports: [],
    lineItems: fo.lineItems
      .filter((line) => moving(line) > 0)
      .map((line) => ({
        id: state.newId(),
        lineItemId: line.lineItemId,
        totalQuantity: moving(line),
        remainingQuantity: moving(line),
      })),
  };
  if (moved.lineItems.length === 0) return refused(`Nothing of ${id} is left to move`);
  for (const line of fo.lineItems) {
    const quantity = moving(line);
    line.totalQuantity -= quantity;
    line.remainingQuantity -= quantity;
  }
  fo.lineItems = fo.lineItems.filter((line) => line.totalQuantity > 0);
  if (fo.lineItems.every((line) => line.remainingQuantity === 0)) fo.status = 'CLOSED';
  order.fulfillmentOrders.push(moved);
  state.touch(order);
  return { ok: true, value: moved };
}

/** Staff release every hold of a fulfillment order: it is open again (in progress if partly shipped). */
export function releaseHold(state: FakeStoreState, id: string): Result<FakeFulfillmentOrder> {
  const found = state.findFulfillmentOrder(gidOf(id));
  if (!found) return refused(`Fulfillment order ${id} does not exist`);
  const { order, fulfillmentOrder: fo } = found;
  if (fo.status !== 'ON_HOLD') return refused(`Fulfillment order ${id} is not on hold`);
  fo.holds = [];
  const started = fo.lineItems.some((l) => l.remainingQuantity < l.totalQuantity);
  fo.status = started || fo.progressReports.length > 0 ? 'IN_PROGRESS' : 'OPEN';
  // The order's updated_at is left as it was: Shopify documents no change of the order for a
  // release, so a client must not count on one.
  order.fulfillmentStatus = orderFulfillmentStatus(order);
  return { ok: true, value: fo };
}

/**
 * Staff fulfil an order in the admin ("Mark as fulfilled", or with tracking), or the store
 * fulfils it automatically: one fulfillment per merchant location with something left to ship.
 * Not an Admin API call, so not in the mutation log; the customer email is in the notifications.
 */
export function staffFulfil(
  state: FakeStoreState,
  orderId: string,
  input: FakeStaffFulfil,
): Result<{ order: FakeOrder; fulfillments: FakeFulfillment[] }> {
  const order = state.orders.get(orderId);
  if (!order) return refused(`Order ${orderId} does not exist`);
  const options = staffFulfilSchema.parse(input);
  const byLocation = new Map<string, FakeFulfillmentOrder[]>();
  for (const fo of order.fulfillmentOrders) {
    const location = state.locationById(fo.locationId);
    if (!FULFILLABLE.has(fo.status) || location.isFulfillmentService) continue;
    if (options.location && location.name !== options.location) continue;
    if (!fo.lineItems.some((l) => l.remainingQuantity > 0)) continue;
    byLocation.set(location.id, [...(byLocation.get(location.id) ?? []), fo]);
  }
  if (byLocation.size === 0) return refused(`Order ${orderId} has nothing staff can fulfil`);
  // Units still to take, by line title, when staff fulfil only some of the order.
  const wanted = options.lines && new Map(options.lines.map((l) => [l.title, l.quantity]));
  const take = (lineItemId: string, remaining: number) => {
    if (!wanted) return remaining;
    const title = order.lineItems.find((item) => item.id === lineItemId)?.title ?? '';
    const quantity = Math.min(wanted.get(title) ?? 0, remaining);
    wanted.set(title, (wanted.get(title) ?? 0) - quantity);
    return quantity;
  };
  const plans = [...byLocation.values()].map((fos) => ({
    fos,
    plan: fos.flatMap((fo) =>
      fo.lineItems
        .map((line) => ({ line, quantity: take(line.lineItemId, line.remainingQuantity) }))
        .filter(({ quantity }) => quantity > 0),
    ),
  }));
  if (wanted && [...wanted.values()].some((left) => left > 0)) {
    return refused(`Order ${orderId} has fewer units left to fulfil than staff asked for`);
  }
  const fulfillments = plans
    .filter(({ plan }) => plan.length > 0)
    .map(({ fos, plan }) =>
      applyFulfillment(
        state,
        order,
        plan,
        fos.filter((fo) => plan.some(({ line }) => fo.lineItems.includes(line))),
        {
          tracking: options.tracking ?? null,
          notifyCustomer: options.notifyCustomer,
          by: 'staff',
        },
      ),
    );
  return { ok: true, value: { order, fulfillments } };
}

const refused = (message: string) => ({
  ok: false as const,
  userErrors: [{ field: null, message }],
});

/** Control routes name a fulfillment order by its number or its gid. */
const gidOf = (id: string) =>
  id.startsWith('gid://') ? id : `gid://shopify/FulfillmentOrder/${id}`;
