import { idFromGid } from './gid.js';
import {
  type FakeFulfillmentOrder,
  type FakeOrder,
  type FakeOrderChange,
  type FakeOrderInput,
  type FakeTracking,
  fakeOrderChangeSchema,
  fakeOrderInputSchema,
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
  | { type: 'orderUpdate'; note: string | null }
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
);

export const FULFILLABLE = new Set<FakeFulfillmentOrder['status']>(['OPEN', 'IN_PROGRESS']);

/** The fake store's orders and the log of what was done to them. No HTTP, no GraphQL. */
export class FakeStoreState {
  readonly orders = new Map<string, FakeOrder>();
  readonly mutations: FakeMutation[] = [];
  private nextId = 90_001;

  constructor(private readonly now: () => Date) {}

  createOrder(input: FakeOrderInput): FakeOrder {
    const data = fakeOrderInputSchema.parse(input);
    const id = data.id ?? this.nextOrderId();
    if (this.orders.has(id)) throw new Error(`Order ${id} exists already`);
    const createdAt = data.createdAt ?? this.timestamp();
    const lineItems = data.lineItems.map((item) => ({
      id: this.newId(),
      title: item.title,
      quantity: item.quantity,
      currentQuantity: item.quantity,
      requiresShipping: item.requiresShipping,
      productType: item.productType,
      sku: item.sku,
      weight: item.weight,
    }));
    const shippable = lineItems.filter((item) => item.requiresShipping);
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
      // Shopify opens a fulfillment order (per location) for the items that need shipping.
      fulfillmentOrders:
        shippable.length === 0
          ? []
          : [
              {
                id: this.newId(),
                status: cancelled ? 'CLOSED' : 'OPEN',
                lineItems: shippable.map((item) => ({
                  id: this.newId(),
                  lineItemId: item.id,
                  totalQuantity: item.quantity,
                  remainingQuantity: cancelled ? 0 : item.quantity,
                })),
              },
            ],
      fulfillments: [],
    };
    this.orders.set(id, order);
    return order;
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
        if (FULFILLABLE.has(fo.status)) fo.status = 'CLOSED';
      }
      topic = 'orders/cancelled';
    }
    if (data.tags) order.tags = [...new Set(data.tags)];
    if (data.note !== undefined) order.note = data.note;
    if (data.test !== undefined) order.test = data.test;
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

  /** Shopify moves updated_at on tag, note and fulfillment changes; reconciliation sees them. */
  touch(order: FakeOrder): void {
    order.updatedAt = this.timestamp();
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
