import type { Config } from '../../config/index.js';
import type {
  StoreAddress,
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

export function anItem(overrides: Partial<StoreLineItem> = {}): StoreLineItem {
  return {
    title: 'Sneaker',
    quantity: 1,
    requiresShipping: true,
    productType: 'Shoes',
    weight: { value: 1, unit: 'KILOGRAMS' },
    ...overrides,
  };
}

/** `count` units of one item weighing `value` `unit` each. */
export function units(count: number, value: number, unit: WeightUnit = 'KILOGRAMS'): StoreLineItem {
  return anItem({ quantity: count, weight: { value, unit } });
}

export function anOrder(overrides: Partial<StoreOrder> = {}): StoreOrder {
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
    lineItems: [anItem()],
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
