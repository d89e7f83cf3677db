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
