import { idFromGid } from './gid.js';
import {
  type AppSetup,
  DEFAULT_LOCATION,
  type FakeDeliveryMethod,
  type FakeFulfillmentOrder,
  type FakeLineItem,
  type FakeLocation,
  type FakeOrder,
  type FakeOrderChange,
  type FakeOrderInput,
  type FakeTracking,
  FULFILLMENT_SERVICE_LOCATION,
  fakeOrderChangeSchema,
  fakeOrderInputSchema,
  newAppSetup,
  SECOND_MERCHANT_LOCATION,
} from './model.js';

export interface FakeUserError {
  field: string[] | null;
  message: string;
  code?: string;
}

/** A mutation's outcome: the changed thing, or the userErrors Shopify would answer with. */
export type Result<T> = { ok: true; value: T } | { ok: false; userErrors: FakeUserError[] };

export const refuse = (field: string[] | null, message: string, code?: string) => ({
  ok: false as const,
  userErrors: [{ field, message, ...(code ? { code } : {}) }],
});

/** Every change the connector made through the Admin API, in order. */
export type FakeMutation = { at: string; orderId: string } & (
  | {
      type: 'metafieldsSet';
      metafields: { namespace: string; key: string; type: string; value: string }[];
    }
  | {
      type: 'metafieldsDelete';
      /** Every identifier asked for; `deleted` is false for one the order did not have. */
      metafields: { namespace: string; key: string; deleted: boolean }[];
    }
  | { type: 'tagsAdd' | 'tagsRemove'; tags: string[] }
  | {
      type: 'orderUpdate';
      note: string | null;
      /** The metafields it set, when it set any. */
      metafields?: { namespace: string; key: string; type: string; value: string }[];
    }
  | {
      type: 'fulfillmentCreate';
      fulfillmentId: string;
      notifyCustomer: boolean;
      trackingInfo: FakeTracking | null;
      lineItems: { fulfillmentOrderLineItemId: string; quantity: number }[];
    }
  | {
      type: 'fulfillmentTrackingInfoUpdate';
      fulfillmentId: string;
      notifyCustomer: boolean;
      trackingInfo: FakeTracking;
    }
  | {
      type: 'fulfillmentEventCreate';
      fulfillmentId: string;
      status: string;
      happenedAt: string;
      message: string | null;
    }
  | {
      type: 'fulfillmentOrderReportProgress';
      fulfillmentOrderId: string;
      reasonNotes: string | null;
      /** The status before the report (OPEN becomes IN_PROGRESS). */
      initialStatus: string;
    }
);

/** An email Shopify sends the customer about a fulfillment. */
export interface FakeCustomerNotification {
  at: string;
  orderId: string;
  fulfillmentId: string;
  /** shipping_confirmation on a fulfillment created with notifyCustomer; shipping_update on a tracking change with it. */
  kind: 'shipping_confirmation' | 'shipping_update';
  /** Who caused it: the app (Admin API) or staff in the admin. */
  by: 'app' | 'staff';
}

export const FULFILLABLE = new Set<FakeFulfillmentOrder['status']>(['OPEN', 'IN_PROGRESS']);

/** The fake store's orders and the log of what was done to them. No HTTP, no GraphQL. */
export class FakeStoreState {
  private readonly changed = new Set<FakeOrder>();
  readonly orders = new Map<string, FakeOrder>();
  readonly mutations: FakeMutation[] = [];
  readonly notifications: FakeCustomerNotification[] = [];
  readonly locations: FakeLocation[] = [];
  /** Granted scopes, webhook subscriptions, metafield definitions: what `connector setup` sees. */
  readonly app: AppSetup;
  /**
   * fulfillmentCreate asked for more of a line than it has left: Shopify's reference does not
   * say. `refuse` (default): a userError and nothing fulfilled, as reported by users;
   * `fulfil-what-is-left`: what is left is fulfilled, and the request succeeds.
   */
  overQuantity: 'refuse' | 'fulfil-what-is-left' = 'refuse';
  private nextId = 90_001;

  constructor(private readonly now: () => Date) {
    this.app = newAppSetup();
    this.location(DEFAULT_LOCATION);
    this.location(SECOND_MERCHANT_LOCATION);
    this.location(FULFILLMENT_SERVICE_LOCATION, true);
  }

  /** The location of that name, added (a merchant one unless said otherwise) when new. */
  location(name: string, isFulfillmentService = false): FakeLocation {
    const found = this.locations.find((l) => l.name === name);
    if (found) return found;
    const location = { id: this.newId(), name, isFulfillmentService };
    this.locations.push(location);
    return location;
  }

  renameLocation(name: string, newName: string): FakeLocation {
    const location = this.locations.find((l) => l.name === name);
    if (!location) throw new Error(`Location ${name} does not exist`);
    if (this.locations.some((l) => l.name === newName)) {
      throw new Error(`Location ${newName} exists already`);
    }
    location.name = newName;
    return location;
  }

  locationById(id: string): FakeLocation {
    const found = this.locations.find((l) => l.id === id);
    if (!found) throw new Error(`Location ${id} does not exist`);
    return found;
  }

  createOrder(input: FakeOrderInput): FakeOrder {
    const data = fakeOrderInputSchema.parse(input);
    const id = data.id ?? this.nextOrderId();
    if (this.orders.has(id)) throw new Error(`Order ${id} exists already`);
    const createdAt = data.createdAt ?? this.timestamp();
    const lineItems: FakeLineItem[] = data.lineItems.map((item) => ({
      id: this.newId(),
      title: item.title,
      quantity: item.quantity,
      currentQuantity: item.quantity,
      requiresShipping: item.requiresShipping,
      productType: item.productType,
      sku: item.sku,
      weight: item.weight,
    }));
    const cancelled = data.cancelledAt !== null;
    const order: FakeOrder = {
      id,
      name: data.name ?? `#${1000 + this.orders.size + 1}`,
      createdAt,
      updatedAt: data.updatedAt ?? createdAt,
      test: data.test,
      cancelledAt: data.cancelledAt,
      financialStatus: data.financialStatus,
      fulfillmentStatus: 'UNFULFILLED',
      tags: [...new Set(data.tags)],
      email: data.email,
      phone: data.phone,
      note: data.note,
      shippingAddress: data.shippingAddress,
      lineItems,
      metafields: data.metafields.map((m) => ({ id: this.newId(), ...m })),
      fulfillmentOrders: this.openFulfillmentOrders(
        data,
        lineItems.map((item, i) => ({
          item,
          location: data.lineItems[i]!.location,
          deliveryMethod: data.lineItems[i]!.deliveryMethod,
        })),
        cancelled,
      ),
      fulfillments: [],
    };
    order.fulfillmentStatus = orderFulfillmentStatus(order);
    this.orders.set(id, order);
    return order;
  }

  /**
   * Shopify opens one fulfillment order per location and delivery method for the items that
   * need shipping; a digital line rides in the fulfillment order of its location (an order of
   * digital lines only gets none). The input may start one on hold or scheduled.
   */
  private openFulfillmentOrders(
    data: ReturnType<typeof fakeOrderInputSchema.parse>,
    placed: { item: FakeLineItem; location: string; deliveryMethod: FakeDeliveryMethod }[],
    cancelled: boolean,
  ): FakeFulfillmentOrder[] {
    const groups = new Map<
      string,
      { name: string; method: FakeDeliveryMethod; items: FakeLineItem[] }
    >();
    for (const { item, location, deliveryMethod } of placed) {
      const key = `${location}\u0000${deliveryMethod}`;
      const group = groups.get(key) ?? { name: location, method: deliveryMethod, items: [] };
      group.items.push(item);
      groups.set(key, group);
    }
    const shipping = [...groups.values()].filter(({ items }) =>
      items.some((item) => item.requiresShipping),
    );
    return shipping.flatMap(({ name, method, items }) => {
      const setting = data.fulfillmentOrders.find((fo) => fo.location === name);
      const deliveries = setting?.deliveries ?? [setting?.fulfillAt ?? null];
      const share = (quantity: number) => {
        if (quantity % deliveries.length !== 0) {
          throw new Error(
            `A quantity of ${quantity} cannot be shared over ${deliveries.length} deliveries`,
          );
        }
        return quantity / deliveries.length;
      };
      const createdAtMs = Date.parse(data.createdAt ?? this.timestamp());
      return deliveries.map((fulfillAt): FakeFulfillmentOrder => {
        const due = setting?.deliveries
          ? fulfillAt && Date.parse(fulfillAt) > createdAtMs
          : fulfillAt;
        const status: FakeFulfillmentOrder['status'] = cancelled
          ? 'CLOSED'
          : setting?.hold
            ? 'ON_HOLD'
            : due
              ? 'SCHEDULED'
              : 'OPEN';
        return {
          id: this.newId(),
          status,
          locationId: this.location(name).id,
          deliveryMethod: method,
          requestStatus: 'UNSUBMITTED',
          fulfillAt,
          holds:
            setting?.hold && !cancelled
              ? [{ id: this.newId(), ...setting.hold, heldByApp: false }]
              : [],
          fulfilmentOffered: setting?.fulfilmentOffered ?? true,
          progressReports: [],
          lineItems: items.map((item) => ({
            id: this.newId(),
            lineItemId: item.id,
            totalQuantity: share(item.quantity),
            remainingQuantity: cancelled ? 0 : share(item.quantity),
          })),
        };
      });
    });
  }

  /** Admin-side changes (cancel, mark paid, …); returns the topic Shopify would announce. */
  updateOrder(id: string, change: FakeOrderChange): { order: FakeOrder; topic: string } {
    const order = this.orders.get(id);
    if (!order) throw new Error(`Order ${id} does not exist`);
    const data = fakeOrderChangeSchema.parse(change);
    let topic = 'orders/updated';
    if (data.financialStatus) order.financialStatus = data.financialStatus;
    if (data.markPaid) {
      order.financialStatus = 'PAID';
      topic = 'orders/paid';
    }
    if (data.cancel) {
      order.cancelledAt = this.timestamp();
      for (const fo of order.fulfillmentOrders) {
        if (!['CLOSED', 'CANCELLED', 'INCOMPLETE'].includes(fo.status)) {
          fo.status = 'CLOSED';
          fo.holds = [];
        }
      }
      topic = 'orders/cancelled';
    }
    for (const { title, quantity } of data.lineQuantities ?? []) {
      removeUnits(order, title, quantity);
    }
    if (data.tags) order.tags = [...new Set(data.tags)];
    if (data.note !== undefined) order.note = data.note;
    if (data.test !== undefined) order.test = data.test;
    order.fulfillmentStatus = orderFulfillmentStatus(order);
    this.touch(order);
    return { order, topic };
  }

  findOrder(orderGid: unknown): FakeOrder | undefined {
    const id = idFromGid('Order', orderGid);
    return id === null ? undefined : this.orders.get(id);
  }

  findFulfillmentOrder(value: unknown) {
    const id = idFromGid('FulfillmentOrder', value);
    for (const order of this.orders.values()) {
      const fulfillmentOrder = order.fulfillmentOrders.find((fo) => fo.id === id);
      if (fulfillmentOrder) return { order, fulfillmentOrder };
    }
    return undefined;
  }

  findFulfillment(value: unknown) {
    const id = idFromGid('Fulfillment', value);
    for (const order of this.orders.values()) {
      const fulfillment = order.fulfillments.find((f) => f.id === id);
      if (fulfillment) return { order, fulfillment };
    }
    return undefined;
  }

  record(mutation: FakeMutation): void {
    this.mutations.push(mutation);
  }

  notify(notification: Omit<FakeCustomerNotification, 'at'>): void {
    this.notifications.push({ at: this.timestamp(), ...notification });
  }

  /** Shopify moves updated_at on tag, note and fulfillment changes; reconciliation sees them. */
  touch(order: FakeOrder): void {
    order.updatedAt = this.timestamp();
    this.changed.add(order);
  }

  /** The orders touched since the last call; an API write announces them as orders/updated. */
  takeChanged(): FakeOrder[] {
    const orders = [...this.changed];
    this.changed.clear();
    return orders;
  }

  timestamp(): string {
    return this.now().toISOString();
  }

  newId(): string {
    return String(this.nextId++);
  }

  private nextOrderId(): string {
    const highest = Math.max(5_550_000, ...[...this.orders.keys()].map(Number));
    return String(highest + 1);
  }
}

/** Order edit: the line titled `title` keeps `quantity` units; unfulfilled ones are taken off. */
function removeUnits(order: FakeOrder, title: string, quantity: number): void {
  const item = order.lineItems.find((line) => line.title === title);
  if (!item) throw new Error(`Order ${order.id} has no line ${title}`);
  if (quantity > item.currentQuantity) {
    throw new Error(`An edit here only removes units; ${title} has ${item.currentQuantity}`);
  }
  let removed = item.currentQuantity - quantity;
  for (const fo of order.fulfillmentOrders) {
    for (const line of fo.lineItems) {
      if (line.lineItemId !== item.id || removed === 0) continue;
      const taken = Math.min(removed, line.remainingQuantity);
      line.remainingQuantity -= taken;
      line.totalQuantity -= taken;
      removed -= taken;
    }
  }
  if (removed > 0) throw new Error(`${title} has fewer unfulfilled units than the edit removes`);
  item.currentQuantity = quantity;
}

/**
 * Order.displayFulfillmentStatus from its fulfillment orders: FULFILLED or PARTIALLY_FULFILLED
 * once something shipped; before that ON_HOLD, SCHEDULED or IN_PROGRESS when every (or, for
 * IN_PROGRESS, some) open fulfillment order is so; else UNFULFILLED.
 */
export function orderFulfillmentStatus(order: FakeOrder): string {
  const active = order.fulfillmentOrders.filter(
    (fo) => !['CLOSED', 'CANCELLED', 'INCOMPLETE'].includes(fo.status),
  );
  if (order.fulfillments.some((f) => f.status === 'SUCCESS')) {
    return active.some((fo) => fo.lineItems.some((l) => l.remainingQuantity > 0))
      ? 'PARTIALLY_FULFILLED'
      : 'FULFILLED';
  }
  if (active.length > 0 && active.every((fo) => fo.status === 'ON_HOLD')) return 'ON_HOLD';
  if (active.length > 0 && active.every((fo) => fo.status === 'SCHEDULED')) return 'SCHEDULED';
  if (active.some((fo) => fo.status === 'IN_PROGRESS')) return 'IN_PROGRESS';
  return 'UNFULFILLED';
}
