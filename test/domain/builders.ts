import type { Config } from '../../config/index.js';
import type {
  StoreAddress,
  StoreFulfillmentOrder,
  StoreLineItem,
  StoreOrder,
  WeightUnit,
} from '../../src/domain/order.js';

/** Small builders so each test states only what it is about. All data is made up. */

export function anAddress(overrides: Partial<StoreAddress> = {}): StoreAddress {
  return {
    name: 'Ada Lovelace',
    company: null,
    phone: '+45 11 22 33 44',
    address1: 'Nørregade 1',
    address2: null,
    city: 'København K',
    zip: '1165',
    countryCode: 'DK',
    ...overrides,
  };
}

let nextItemId = 1;

/** A line item; nothing of it fulfilled unless `unfulfilledQuantity` says otherwise. */
export function anItem(overrides: Partial<StoreLineItem> = {}): StoreLineItem {
  const quantity = overrides.quantity ?? 1;
  return {
    id: `gid://shopify/LineItem/${nextItemId++}`,
    title: 'Sneaker',
    quantity,
    unfulfilledQuantity: quantity,
    requiresShipping: true,
    productType: 'Shoes',
    weight: { value: 1, unit: 'KILOGRAMS' },
    ...overrides,
  };
}

/**
 * An open fulfillment order for shipping from the merchant's "Shop location", holding what is
 * unfulfilled of these items.
 */
export function aFulfillmentOrder(
  items: readonly StoreLineItem[],
  overrides: Partial<StoreFulfillmentOrder> = {},
): StoreFulfillmentOrder {
  return {
    id: `gid://shopify/FulfillmentOrder/${nextItemId++}`,
    status: 'OPEN',
    location: {
      id: 'gid://shopify/Location/1',
      name: 'Shop location',
      isFulfillmentService: false,
    },
    deliveryMethod: 'SHIPPING',
    holdReasons: [],
    fulfillAt: null,
    lineItems: items.map((item) => ({
      id: `gid://shopify/FulfillmentOrderLineItem/${nextItemId++}`,
      lineItemId: item.id,
      totalQuantity: item.quantity,
      remainingQuantity: item.unfulfilledQuantity,
    })),
    ...overrides,
  };
}

/** `count` units of one item weighing `value` `unit` each. */
export function units(count: number, value: number, unit: WeightUnit = 'KILOGRAMS'): StoreLineItem {
  return anItem({ quantity: count, weight: { value, unit } });
}

/** An order whose items are all on one open shipping fulfillment order unless said otherwise. */
export function anOrder(overrides: Partial<StoreOrder> = {}): StoreOrder {
  const lineItems = overrides.lineItems ?? [anItem()];
  return {
    id: '5551234',
    name: '#1001',
    createdAt: '2026-07-01T10:00:00Z',
    updatedAt: '2026-07-01T10:05:00Z',
    test: false,
    cancelledAt: null,
    financialStatus: 'paid',
    fulfillmentStatus: 'unfulfilled',
    tags: [],
    shipmentOrderNumber: null,
    email: 'ada@example.com',
    phone: null,
    shipmentError: false,
    shippingAddress: anAddress(),
    lineItems,
    fulfillmentOrders: [aFulfillmentOrder(lineItems)],
    ...overrides,
  };
}

export function someSettings(overrides: Partial<Config['shipment']> = {}): Config['shipment'] {
  return {
    sender: {
      name: 'Warehouse Desk',
      company: 'Example Goods ApS',
      phone: '+45 70 00 00 00',
      email: 'warehouse@example.com',
      street: 'Lagervej 2',
      city: 'Odense',
      postalCode: '5000',
      countryCode: 'DK',
    },
    sendReceiverEmail: false,
    documentTag: 'document',
    contentDescription: undefined,
    defaultWeightKg: 0.5,
    defaultBox: { lengthCm: 30, widthCm: 20, heightCm: 10 },
    collectFromLocations: [],
    ...overrides,
  };
}

export function someRules(overrides: Partial<Config['eligibility']> = {}): Config['eligibility'] {
  return {
    financialStatuses: ['paid'],
    skipTestOrders: true,
    includeTags: [],
    excludeTags: [],
    ...overrides,
  };
}
