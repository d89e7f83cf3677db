/**
 * A store order as the connector sees it: the fields shipping and eligibility need, already
 * read from Shopify's GraphQL shape. The store client produces it; domain functions consume it.
 */
export type WeightUnit = 'GRAMS' | 'KILOGRAMS' | 'OUNCES' | 'POUNDS';

export interface StoreAddress {
  name: string | null;
  company: string | null;
  phone: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  zip: string | null;
  /** ISO 3166-1 alpha-2 as Shopify gives it (countryCodeV2). */
  countryCode: string | null;
}

export interface StoreLineItem {
  /** LineItem gid: what fulfillment order lines point at. */
  id: string;
  title: string;
  /** Quantity still on the order after removals (currentQuantity). */
  quantity: number;
  /** Units not fulfilled yet, wherever they are (unfulfilledQuantity). */
  unfulfilledQuantity: number;
  requiresShipping: boolean;
  productType: string | null;
  /** Weight of one unit, or null when the variant has none. */
  weight: { value: number; unit: WeightUnit } | null;
}

/** A fulfillment order line: units of one line item assigned to one fulfillment order. */
export interface StoreFulfillmentOrderLine {
  /** FulfillmentOrderLineItem gid: what fulfillmentCreate takes. */
  id: string;
  /** The order's LineItem gid. */
  lineItemId: string;
  totalQuantity: number;
  /** Units of this line still to fulfil from this fulfillment order. */
  remainingQuantity: number;
}

/**
 * Where and how a group of the order's units is to be fulfilled (Shopify's FulfillmentOrder):
 * what is left to ship lives here, not on the line items.
 */
export interface StoreFulfillmentOrder {
  /** FulfillmentOrder gid. */
  id: string;
  /** OPEN, IN_PROGRESS, ON_HOLD, SCHEDULED, CLOSED, CANCELLED, INCOMPLETE (kept as string). */
  status: string;
  /** assignedLocation; id null when the location was deleted since. */
  location: { id: string | null; name: string; isFulfillmentService: boolean };
  /** deliveryMethod.methodType: SHIPPING, PICKUP_POINT, PICK_UP, LOCAL, RETAIL, NONE; null when unset. */
  deliveryMethod: string | null;
  /** fulfillmentHolds[].displayReason (ON_HOLD). */
  holdReasons: string[];
  /** When a SCHEDULED fulfillment order becomes ready. */
  fulfillAt: string | null;
  lineItems: StoreFulfillmentOrderLine[];
}

/** What every read of an order carries: all the order-level eligibility rules look at. */
export interface StoreOrderHeader {
  /** Numeric id, e.g. "5551234"; also the shipment reference. */
  id: string;
  /** "#1001", what staff see. */
  name: string;
  createdAt: string;
  updatedAt: string;
  test: boolean;
  cancelledAt: string | null;
  /** Lowercased displayFinancialStatus, e.g. "paid", "pending", "partially_refunded". */
  financialStatus: string | null;
  /** Lowercased displayFulfillmentStatus, e.g. "unfulfilled", "fulfilled". */
  fulfillmentStatus: string | null;
  tags: string[];
  /**
   * The provider order number this connector wrote on the order (metafield
   * partner_shipment.order_number), or null: a mark that outlives anything kept in Redis.
   */
  shipmentOrderNumber: string | null;
}

/**
 * An order as the store lists it (reconciliation, backfill): the header and Shopify's own
 * Order.requiresShipping instead of line items and address, so a page of orders costs Shopify's
 * query-cost calculator one point per order rather than hundreds.
 */
export interface StoreOrderSummary extends StoreOrderHeader {
  /** Whether anything on the order needs physical shipping (false for digital-only orders). */
  requiresShipping: boolean;
}

/** The whole order, as registering a shipment needs it. */
export interface StoreOrder extends StoreOrderHeader {
  email: string | null;
  phone: string | null;
  /**
   * Whether the order carries the reason of an earlier refusal (metafield
   * partner_shipment.error), which its registration mark clears.
   */
  shipmentError: boolean;
  shippingAddress: StoreAddress | null;
  /** Every line item of the order, however many pages Shopify gave them in. */
  lineItems: StoreLineItem[];
  /**
   * Every fulfillment order the connector's scopes let it see (a fulfillment service's only with
   * read_third_party_fulfillment_orders), with all their lines.
   */
  fulfillmentOrders: StoreFulfillmentOrder[];
}

const ORDER_GID_PREFIX = 'gid://shopify/Order/';

/** Accepts "5551234" or "gid://shopify/Order/5551234"; returns the numeric id or null. */
export function parseOrderId(value: string | number): string | null {
  const s = String(value).trim();
  const id = s.startsWith(ORDER_GID_PREFIX) ? s.slice(ORDER_GID_PREFIX.length) : s;
  return /^\d{1,20}$/.test(id) ? id : null;
}

export function orderGid(id: string): string {
  return `${ORDER_GID_PREFIX}${id}`;
}
