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

export interface FakeFulfillmentOrder {
  id: string;
  status: 'OPEN' | 'IN_PROGRESS' | 'CLOSED' | 'CANCELLED';
  lineItems: { id: string; lineItemId: string; totalQuantity: number; remainingQuantity: number }[];
}

export interface FakeTracking {
  company: string | null;
  number: string | null;
  url: string | null;
}

export interface FakeFulfillment {
  id: string;
  status: 'SUCCESS' | 'CANCELLED';
  createdAt: string;
  notifyCustomer: boolean;
  trackingInfo: FakeTracking[];
  lineItems: { fulfillmentOrderLineItemId: string; quantity: number }[];
  events: { id: string; status: string; happenedAt: string; message: string | null }[];
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
  quantity: z.number().int().positive().default(1),
  requiresShipping: z.boolean().default(true),
  productType: z.string().default('Homeware'),
  sku: z.string().nullable().default(null),
  /** null: the variant has no weight set (Shopify then reports 0 g). */
  weight: z
    .object({ value: z.number().nonnegative(), unit: upper(WEIGHT_UNITS).default('GRAMS') })
    .nullable()
    .default({ value: 350, unit: 'GRAMS' }),
});

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
});

export type FakeOrderChange = z.input<typeof fakeOrderChangeSchema>;
