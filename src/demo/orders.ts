import type { FakeOrderInput } from '../sandbox/store/index.js';

/** Seeded fixture ids the demo acts on (src/sandbox/store/fixtures). */
export const FIXTURE_IDS = {
  unpaidRoskilde: '5550005',
} as const;

/** Orders placed during the demo; each arrives by an `orders/create` webhook. */
export const NEW_ORDERS: FakeOrderInput[] = [
  {
    // Every field the fake store fills in: a paid order of one mug to Copenhagen.
    email: 'mette.hansen@example.dk',
  },
  {
    email: 'lars.nielsen@example.dk',
    phone: '+4540506070',
    shippingAddress: {
      name: 'Lars Nielsen',
      phone: '+4540506070',
      address1: 'Strandvejen 100',
      city: 'Hellerup',
      zip: '2900',
      countryCode: 'DK',
    },
    lineItems: [
      {
        title: 'Linen tea towel',
        quantity: 2,
        productType: 'Textiles',
        weight: { value: 120, unit: 'GRAMS' },
      },
      {
        title: 'Cast iron teapot',
        quantity: 1,
        productType: 'Homeware',
        weight: { value: 1.4, unit: 'KILOGRAMS' },
      },
    ],
  },
  {
    // Paid, but nothing to put in a parcel.
    email: 'ida.larsen@example.dk',
    lineItems: [
      {
        title: 'Gift card 500 DKK',
        quantity: 1,
        requiresShipping: false,
        productType: 'Gift card',
        weight: null,
      },
    ],
  },
];

/** Placed while the sandbox answers the next create with HTTP 500. */
export const HICCUP_ORDER: FakeOrderInput = {
  email: 'freja.moller@example.dk',
  shippingAddress: {
    name: 'Freja Møller',
    phone: '+4530405060',
    address1: 'Åboulevarden 31',
    city: 'Aarhus C',
    zip: '8000',
    countryCode: 'DK',
  },
  lineItems: [
    {
      title: 'Stoneware bowl',
      quantity: 3,
      productType: 'Homeware',
      weight: { value: 600, unit: 'GRAMS' },
    },
  ],
};

/**
 * Three blankets and a mug, placed unpaid; staff fulfil two blankets with their own tracking
 * before payment arrives. Only one blanket and the mug are left for the provider.
 */
export const PARTLY_FULFILLED_ORDER: FakeOrderInput = {
  email: 'karen.holm@example.dk',
  financialStatus: 'PENDING',
  shippingAddress: {
    name: 'Karen Holm',
    phone: '+4522334455',
    address1: 'Vestergade 8',
    city: 'Odense C',
    zip: '5000',
    countryCode: 'DK',
  },
  lineItems: [
    {
      title: 'Wool blanket',
      quantity: 3,
      productType: 'Textiles',
      weight: { value: 800, unit: 'GRAMS' },
    },
    { title: 'Ceramic mug', productType: 'Homeware', weight: { value: 350, unit: 'GRAMS' } },
  ],
};

/** What staff fulfilled of PARTLY_FULFILLED_ORDER before it was paid. */
export const STAFF_FULFILLED = {
  lines: [{ title: 'Wool blanket', quantity: 2 }],
  tracking: { company: 'GLS', number: 'GLS-58120037' },
};

/** Garden benches another app's warehouse (a fulfillment service) ships, and a mug. */
export const FULFILLMENT_SERVICE_ORDER: FakeOrderInput = {
  email: 'mads.berg@example.dk',
  shippingAddress: {
    name: 'Mads Berg',
    phone: '+4526778899',
    address1: 'Søndergade 21',
    city: 'Vejle',
    zip: '7100',
    countryCode: 'DK',
  },
  lineItems: [
    {
      title: 'Garden bench',
      quantity: 3,
      location: "Another app's warehouse",
      productType: 'Furniture',
      weight: { value: 2, unit: 'KILOGRAMS' },
    },
    { title: 'Ceramic mug', productType: 'Homeware', weight: { value: 350, unit: 'GRAMS' } },
  ],
};
