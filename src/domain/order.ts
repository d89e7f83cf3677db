/** A store order as the connector needs it, read from Shopify's GraphQL by the store client. */
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

export interface StoreFulfillmentOrderLine {
  /** FulfillmentOrderLineItem gid: what fulfillmentCreate takes. */
  id: string;
  /** LineItem gid. */
  lineItemId: string;
  totalQuantity: number;
  /** Units of this line still to fulfil from this fulfillment order. */
  remainingQuantity: number;
}

/** Shopify's FulfillmentOrder: what is left to ship lives here, not on the line items. */
export interface StoreFulfillmentOrder {
  /** FulfillmentOrder gid. */
  id: string;
  /** OPEN, IN_PROGRESS, ON_HOLD, SCHEDULED, CLOSED, CANCELLED, INCOMPLETE (kept as string). */
  status: string;
  /** assignedLocation; id null when the location was deleted since. */
  location: { id: string | null; name: string; isFulfillmentService: boolean };
  /** deliveryMethod.methodType: SHIPPING, PICKUP_POINT, PICK_UP, LOCAL, RETAIL, NONE, or null. */
  deliveryMethod: string | null;
  /** FulfillmentOrderAction values, e.g. CREATE_FULFILLMENT: what the app may do with it now. */
  supportedActions: string[];
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
  /** Metafield partner_shipment.order_number: a mark that outlives anything kept in Redis. */
  shipmentOrderNumber: string | null;
}

/**
 * As listed (reconciliation, backfill): Order.requiresShipping instead of line items and address,
 * so a page costs one query-cost point per order rather than hundreds.
 */
export interface StoreOrderSummary extends StoreOrderHeader {
  /** Whether anything on the order needs physical shipping (false for digital-only orders). */
  requiresShipping: boolean;
}

export interface StoreOrder extends StoreOrderHeader {
  email: string | null;
  phone: string | null;
  /** Metafield partner_shipment.error (a refusal's reason) is set; registration clears it. */
  shipmentError: boolean;
  shippingAddress: StoreAddress | null;
  /** Every line item of the order, however many pages Shopify gave them in. */
  lineItems: StoreLineItem[];
  /** A fulfillment service's show only with scope read_third_party_fulfillment_orders. */
  fulfillmentOrders: StoreFulfillmentOrder[];
}

const ORDER_GID_PREFIX = 'gid://shopify/Order/';

export function parseOrderId(value: string | number): string | null {
  const s = String(value).trim();
  const id = s.startsWith(ORDER_GID_PREFIX) ? s.slice(ORDER_GID_PREFIX.length) : s;
  return /^\d{1,20}$/.test(id) ? id : null;
}

export function orderGid(id: string): string {
  return `${ORDER_GID_PREFIX}${id}`;
}
