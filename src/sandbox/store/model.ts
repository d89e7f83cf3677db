import { z } from 'zod';

/** The fake store's own record of an order: plain data, GraphQL shapes are made from it on read. */

export const FINANCIAL_STATUSES = [
  'AUTHORIZED',
  'EXPIRED',
  'PAID',
  'PARTIALLY_PAID',
  'PARTIALLY_REFUNDED',
  'PENDING',
  'REFUNDED',
  'VOIDED',
] as const;

export const WEIGHT_UNITS = ['GRAMS', 'KILOGRAMS', 'OUNCES', 'POUNDS'] as const;

/** The countries the fake's CountryCode enum knows (a subset of Shopify's). */
export const COUNTRY_CODES = [
  'AT',
  'BE',
  'CH',
  'DE',
  'DK',
  'ES',
  'FI',
  'FO',
  'FR',
  'GB',
  'GL',
  'IE',
  'IS',
  'IT',
  'NL',
  'NO',
  'PL',
  'SE',
  'US',
] as const;

export interface FakeAddress {
  name: string | null;
  company: string | null;
  phone: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  zip: string | null;
  countryCode: string | null;
}

export interface FakeLineItem {
  id: string;
  title: string;
  quantity: number;
  currentQuantity: number;
  requiresShipping: boolean;
  productType: string;
  sku: string | null;
  weight: { value: number; unit: (typeof WEIGHT_UNITS)[number] } | null;
}

export interface FakeMetafield {
  id: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
}

export const FULFILLMENT_ORDER_STATUSES = [
  'OPEN',
  'IN_PROGRESS',
  'ON_HOLD',
  'SCHEDULED',
  'CLOSED',
  'CANCELLED',
  'INCOMPLETE',
] as const;

export const HOLD_REASONS = [
  'AWAITING_PAYMENT',
  'AWAITING_RETURN_ITEMS',
  'HIGH_RISK_OF_FRAUD',
  'INCORRECT_ADDRESS',
  'INVENTORY_OUT_OF_STOCK',
  'ONLINE_STORE_POST_PURCHASE_CROSS_SELL',
  'OTHER',
  'UNKNOWN_DELIVERY_DATE',
] as const;

/** A place fulfillment orders are assigned to: the merchant's own, or a fulfillment service's. */
export interface FakeLocation {
  id: string;
  name: string;
  isFulfillmentService: boolean;
}

/** The locations every fake store has; a line naming another location gets a merchant one. */
export const DEFAULT_LOCATION = 'Shop location';
export const SECOND_MERCHANT_LOCATION = 'Aarhus warehouse';
export const FULFILLMENT_SERVICE_LOCATION = "Another app's warehouse";

export interface FakeFulfillmentHold {
  id: string;
  reason: (typeof HOLD_REASONS)[number];
  reasonNotes: string | null;
  /** Whether our app placed it (the connector never does; staff or other apps do). */
  heldByApp: boolean;
}

/** DeliveryMethodType: how a fulfillment order's units reach the customer. */
export const DELIVERY_METHOD_TYPES = [
  'SHIPPING',
  'PICKUP_POINT',
  'PICK_UP',
  'LOCAL',
  'RETAIL',
  'NONE',
] as const;

export type FakeDeliveryMethod = (typeof DELIVERY_METHOD_TYPES)[number];

export interface FakeFulfillmentOrder {
  id: string;
  status: (typeof FULFILLMENT_ORDER_STATUSES)[number];
  locationId: string;
  /** Shopify opens one fulfillment order per location and delivery method. */
  deliveryMethod: FakeDeliveryMethod;
  /** UNSUBMITTED for merchant locations; fulfillment services move it on. */
  requestStatus: string;
  /** When a SCHEDULED fulfillment order becomes ready. */
  fulfillAt: string | null;
  holds: FakeFulfillmentHold[];
  /**
   * Whether Shopify offers the app fulfilment of this open fulfillment order now. Its
   * supportedActions are "the actions it supports in its current state": an open one may offer
   * none (no CREATE_FULFILLMENT), and offer them again later.
   */
  fulfilmentOffered: boolean;
  /** Progress reports (fulfillmentOrderReportProgress), oldest first. */
  progressReports: { at: string; reasonNotes: string | null }[];
  lineItems: { id: string; lineItemId: string; totalQuantity: number; remainingQuantity: number }[];
}

export interface FakeTracking {
  company: string | null;
  number: string | null;
  url: string | null;
}

export interface FakeFulfillmentEvent {
  id: string;
  status: string;
  happenedAt: string;
  createdAt: string;
  message: string | null;
}

export interface FakeFulfillment {
  id: string;
  status: 'SUCCESS' | 'CANCELLED';
  /** FulfillmentDisplayStatus: FULFILLED, MARKED_AS_FULFILLED, then the latest event's status. */
  displayStatus: string;
  createdAt: string;
  updatedAt: string;
  deliveredAt: string | null;
  inTransitAt: string | null;
  locationId: string;
  fulfillmentOrderIds: string[];
  /** app: through the Admin API (the connector); staff: in the admin (`POST /_fake/orders/{id}/fulfil`). */
  createdBy: 'app' | 'staff';
  notifyCustomer: boolean;
  trackingInfo: FakeTracking[];
  lineItems: { fulfillmentOrderLineItemId: string; quantity: number }[];
  events: FakeFulfillmentEvent[];
}

export interface FakeOrder {
  /** Numeric, e.g. "5550001". */
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  test: boolean;
  cancelledAt: string | null;
  financialStatus: (typeof FINANCIAL_STATUSES)[number];
  fulfillmentStatus: string;
  tags: string[];
  email: string | null;
  phone: string | null;
  note: string | null;
  shippingAddress: FakeAddress | null;
  lineItems: FakeLineItem[];
  metafields: FakeMetafield[];
  fulfillmentOrders: FakeFulfillmentOrder[];
  fulfillments: FakeFulfillment[];
}

const isoTime = z.iso.datetime({ offset: true });
const upper = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(values));

const addressInput = z.object({
  name: z.string().nullable().default('Mette Hansen'),
  company: z.string().nullable().default(null),
  phone: z.string().nullable().default('+4520123456'),
  address1: z.string().nullable().default('Nørrebrogade 12'),
  address2: z.string().nullable().default(null),
  city: z.string().nullable().default('København N'),
  zip: z.string().nullable().default('2200'),
  countryCode: upper(COUNTRY_CODES).nullable().default('DK'),
});

const lineItemInput = z.object({
  title: z.string().min(1).default('Ceramic mug'),
  /** The location the line is assigned to: one fulfillment order per location. */
  location: z.string().min(1).default(DEFAULT_LOCATION),
  quantity: z.number().int().positive().default(1),
  requiresShipping: z.boolean().default(true),
  /** How the customer chose to get the line: shipped (default), picked up, delivered locally… */
  deliveryMethod: upper(DELIVERY_METHOD_TYPES).default('SHIPPING'),
  productType: z.string().default('Homeware'),
  sku: z.string().nullable().default(null),
  /** null: the variant has no weight set (Shopify then reports 0 g). */
  weight: z
    .object({ value: z.number().nonnegative(), unit: upper(WEIGHT_UNITS).default('GRAMS') })
    .nullable()
    .default({ value: 350, unit: 'GRAMS' }),
});

export const holdInput = z.object({
  reason: upper(HOLD_REASONS).default('OTHER'),
  reasonNotes: z.string().nullable().default(null),
});

export const trackingInput = z.object({
  company: z.string().nullable().default(null),
  number: z.string().nullable().default(null),
  url: z.url().nullable().default(null),
});

/** What staff fulfilling an order in the admin (`POST /_fake/orders/{id}/fulfil`) may say. */
export const staffFulfilSchema = z.object({
  /** Without tracking it is "Mark as fulfilled". */
  tracking: trackingInput.optional(),
  notifyCustomer: z.boolean().default(false),
  /** Only this location's fulfillment orders; all fulfillable merchant ones otherwise. */
  location: z.string().min(1).optional(),
  /** Only these units (by line title); everything left otherwise. */
  lines: z
    .array(z.object({ title: z.string().min(1), quantity: z.number().int().positive() }))
    .min(1)
    .optional(),
});

export type FakeStaffFulfil = z.input<typeof staffFulfilSchema>;

/**
 * A partial order as fixtures and `POST /_fake/orders` give it; every missing field gets a
 * realistic Danish default.
 */
export const fakeOrderInputSchema = z.object({
  id: z
    .union([z.string().regex(/^\d{1,20}$/), z.number().int().positive()])
    .transform(String)
    .optional(),
  name: z.string().min(1).optional(),
  createdAt: isoTime.optional(),
  updatedAt: isoTime.optional(),
  test: z.boolean().default(false),
  cancelledAt: isoTime.nullable().default(null),
  financialStatus: upper(FINANCIAL_STATUSES).default('PAID'),
  tags: z.array(z.string().trim().min(1)).default([]),
  email: z.string().nullable().default('mette.hansen@example.dk'),
  phone: z.string().nullable().default('+4520123456'),
  note: z.string().nullable().default(null),
  shippingAddress: addressInput.nullable().default(addressInput.parse({})),
  lineItems: z
    .array(lineItemInput)
    .min(1)
    .default([lineItemInput.parse({})]),
  metafields: z
    .array(
      z.object({
        namespace: z.string().min(1),
        key: z.string().min(1),
        type: z.string().default('single_line_text_field'),
        value: z.string(),
      }),
    )
    .default([]),
  /**
   * How the fulfillment order at a location starts: on hold (with a reason) or scheduled. A
   * location without an entry starts OPEN.
   */
  fulfillmentOrders: z
    .array(
      z.object({
        location: z.string().min(1).default(DEFAULT_LOCATION),
        hold: holdInput.optional(),
        fulfillAt: isoTime.optional(),
        /** false: open, but Shopify offers no fulfilment of it (yet). */
        fulfilmentOffered: z.boolean().default(true),
        /**
         * A prepaid subscription's deliveries (Shopify's delivery anchors): the location's units
         * shared evenly over one fulfillment order per date, each scheduled for its date, one
         * dated at or before the order's creation open at once. Each line's quantity must divide
         * by the number of deliveries.
         */
        deliveries: z.array(isoTime).min(1).optional(),
      }),
    )
    .default([]),
});

export type FakeOrderInput = z.input<typeof fakeOrderInputSchema>;

/** What `updateOrder` / `POST /_fake/orders/{id}` may change. */
export const fakeOrderChangeSchema = z.object({
  cancel: z.boolean().optional(),
  markPaid: z.boolean().optional(),
  financialStatus: upper(FINANCIAL_STATUSES).optional(),
  tags: z.array(z.string().trim().min(1)).optional(),
  note: z.string().nullable().optional(),
  test: z.boolean().optional(),
  /**
   * An order edit that removes units: each named line keeps `quantity` units (0 removes it).
   * Shopify lowers the line's currentQuantity and takes the units off its fulfillment orders.
   */
  lineQuantities: z
    .array(z.object({ title: z.string().min(1), quantity: z.number().int().nonnegative() }))
    .optional(),
});

export type FakeOrderChange = z.input<typeof fakeOrderChangeSchema>;

/**
 * What an app's installation on the store holds besides orders: the access scopes it was
 * granted, its webhook subscriptions and the metafield definitions it made. `connector setup`
 * reads and writes these.
 */

/**
 * The scopes the connector needs, as Shopify documents them per operation:
 * read_orders / write_orders (orders, tags, notes, metafields on orders);
 * read_/write_merchant_managed_fulfillment_orders (fulfillment orders at the merchant's
 * locations: fulfillmentCreate, fulfillmentTrackingInfoUpdate, fulfillmentOrderReportProgress);
 * read_/write_fulfillments (fulfillmentEventCreate).
 */
export const DEFAULT_ACCESS_SCOPES = [
  'read_orders',
  'write_orders',
  // Variants' weights (Product, ProductVariant, InventoryItem) and where fulfillment orders ship from.
  'read_products',
  'read_locations',
  'read_merchant_managed_fulfillment_orders',
  'write_merchant_managed_fulfillment_orders',
  'read_fulfillments',
  'write_fulfillments',
];

export interface FakeWebhookSubscription {
  id: string;
  topic: string;
  uri: string;
  format: 'JSON' | 'XML';
  createdAt: string;
  updatedAt: string;
}

export interface FakeMetafieldDefinition {
  id: string;
  name: string;
  namespace: string;
  key: string;
  type: string;
  ownerType: string;
  description: string | null;
  /** Pinned: shown on the owner's page in the admin (Order: the Metafields card). */
  pinned: boolean;
}

export interface AppSetup {
  accessScopes: string[];
  webhookSubscriptions: FakeWebhookSubscription[];
  metafieldDefinitions: FakeMetafieldDefinition[];
}

export const newAppSetup = (): AppSetup => ({
  accessScopes: [...DEFAULT_ACCESS_SCOPES],
  webhookSubscriptions: [],
  metafieldDefinitions: [],
});
