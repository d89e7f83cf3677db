import type { ListQuery } from '../../src/partner/schemas.js';

/**
 * The contract's rules (partner-shipment-api.md) as one table of cases, each bound at and just
 * past its limit. test/contract/contract-cases.test.ts runs every case against the client's
 * local pre-check and against the sandbox over HTTP: both must agree with the table, so a rule
 * one of them gets wrong fails there, whichever it is.
 */

type Json = Record<string, unknown>;

export interface CreateCase {
  name: string;
  body: Json;
  /** Absent for a valid request; else exactly the dotted field keys the errors must name. */
  errors?: string[];
}

let serial = 0;

/** A request that passes every rule; each reference is new, so every valid case creates. */
function validRequest(): Json {
  serial += 1;
  return {
    reference: `contract-${serial}`,
    order_type: 'package',
    content_description: 'Cotton t-shirts',
    sender: {
      name: 'Warehouse',
      company_name: 'Demo Shop ApS',
      phone: '+4511223344',
      address: { street: 'Lagervej 1', city: 'Odense', postal_code: '5000', country_code: 'DK' },
    },
    receiver: {
      name: 'Karen Jensen',
      phone: '+4522334455',
      email: 'karen@example.dk',
      address: { street: 'Nørregade 7', city: 'Aarhus', postal_code: '8000', country_code: 'DK' },
    },
    packages: [{ quantity: 1, weight_kg: 1.2, length_cm: 30, width_cm: 20, height_cm: 10 }],
  };
}

/** A valid request with values set at dotted paths (`packages.0.weight_kg`); `undefined` removes. */
function requestWith(changes: Record<string, unknown>): Json {
  const body = validRequest();
  for (const [path, value] of Object.entries(changes)) {
    const keys = path.split('.');
    const last = keys.pop()!;
    let node = body as Record<string, unknown>;
    for (const key of keys) node = node[key] as Record<string, unknown>;
    if (value === undefined) delete node[last];
    else node[last] = value;
  }
  return body;
}

const valid = (name: string, changes: Record<string, unknown>): CreateCase => ({
  name,
  body: requestWith(changes),
});
const invalid = (name: string, changes: Record<string, unknown>, errors: string[]): CreateCase => ({
  name,
  body: requestWith(changes),
  errors,
});
/** The field missing, reported under its own path. */
const missing = (path: string): CreateCase =>
  invalid(`missing ${path}`, { [path]: undefined }, [path]);

const line = (field: string) => `packages.0.${field}`;
const document = { order_type: 'document' };

const PARTY_FIELDS = ['name', 'phone', 'address'];
const ADDRESS_FIELDS = ['street', 'city', 'postal_code', 'country_code'];
const LINE_FIELDS = ['quantity', 'weight_kg', 'length_cm', 'width_cm', 'height_cm'];

export const createCases: CreateCase[] = [
  valid('the base request', {}),

  // Package line bounds (Limits): at the limit, and just past it.
  valid('quantity 1', { [line('quantity')]: 1 }),
  valid('quantity 100', { [line('quantity')]: 100 }),
  invalid('quantity 0', { [line('quantity')]: 0 }, [line('quantity')]),
  invalid('quantity 101', { [line('quantity')]: 101 }, [line('quantity')]),
  invalid('quantity 1.5', { [line('quantity')]: 1.5 }, [line('quantity')]),
  valid('weight 0.1 kg', { [line('weight_kg')]: 0.1 }),
  valid('weight 30 kg', { [line('weight_kg')]: 30 }),
  invalid('weight 0.09 kg', { [line('weight_kg')]: 0.09 }, [line('weight_kg')]),
  invalid('weight 30.01 kg', { [line('weight_kg')]: 30.01 }, [line('weight_kg')]),
  invalid('weight sent as a string', { [line('weight_kg')]: '1.2' }, [line('weight_kg')]),
  valid('length 120 cm', { [line('length_cm')]: 120 }),
  invalid('length 121 cm', { [line('length_cm')]: 121 }, [line('length_cm')]),
  valid('width 50 cm', { [line('width_cm')]: 50 }),
  invalid('width 51 cm', { [line('width_cm')]: 51 }, [line('width_cm')]),
  valid('height 50 cm', { [line('height_cm')]: 50 }),
  invalid('height 51 cm', { [line('height_cm')]: 51 }, [line('height_cm')]),
  // No lower bound is published for dimensions; both sides refuse a size of nothing.
  invalid('height 0 cm', { [line('height_cm')]: 0 }, [line('height_cm')]),
  invalid(
    'a bad second package line',
    {
      'packages.1': { quantity: 1, weight_kg: 31, length_cm: 30, width_cm: 20, height_cm: 10 },
    },
    ['packages.1.weight_kg'],
  ),

  // Document weights: 0.1 to 2 kg.
  valid('document of 0.1 kg', { ...document, [line('weight_kg')]: 0.1 }),
  valid('document of 2 kg', { ...document, [line('weight_kg')]: 2 }),
  invalid('document of 2.01 kg', { ...document, [line('weight_kg')]: 2.01 }, [line('weight_kg')]),
  invalid('document of 0.09 kg', { ...document, [line('weight_kg')]: 0.09 }, [line('weight_kg')]),
  invalid('document of 30 kg', { ...document, [line('weight_kg')]: 30 }, [line('weight_kg')]),
  invalid(
    'document of 2.5 kg without a content description',
    { ...document, [line('weight_kg')]: 2.5, content_description: undefined },
    ['content_description', line('weight_kg')],
  ),
  invalid(
    'document of 2.5 kg without a reference or a receiver postal code',
    {
      ...document,
      [line('weight_kg')]: 2.5,
      reference: undefined,
      'receiver.address.postal_code': undefined,
    },
    ['reference', 'receiver.address.postal_code', line('weight_kg')],
  ),
  invalid(
    'document of 2.5 kg on the second line with the first line missing its quantity',
    {
      ...document,
      [line('quantity')]: undefined,
      'packages.1': { quantity: 1, weight_kg: 2.5, length_cm: 30, width_cm: 20, height_cm: 10 },
    },
    [line('quantity'), 'packages.1.weight_kg'],
  ),

  // Reference: required, at most 255 characters.
  valid('reference of 255 characters', { reference: 'r'.repeat(255) }),
  invalid('reference of 256 characters', { reference: 'r'.repeat(256) }, ['reference']),
  valid('reference of 255 characters outside the BMP', { reference: '📦'.repeat(255) }),
  invalid('reference of 256 characters outside the BMP', { reference: '📦'.repeat(256) }, [
    'reference',
  ]),
  invalid('blank reference', { reference: '   ' }, ['reference']),

  // Every required field, missing.
  ...['reference', 'order_type', 'content_description', 'sender', 'receiver', 'packages'].map(
    missing,
  ),
  ...['sender', 'receiver'].flatMap((party) => [
    ...PARTY_FIELDS.map((field) => missing(`${party}.${field}`)),
    ...ADDRESS_FIELDS.map((field) => missing(`${party}.address.${field}`)),
  ]),
  ...LINE_FIELDS.map((field) => missing(line(field))),
  invalid('no package lines', { packages: [] }, ['packages']),
  invalid('a blank sender name', { 'sender.name': '  ' }, ['sender.name']),

  // order_type: one of package, document.
  valid('order type document', { order_type: 'document' }),
  invalid('unknown order type', { order_type: 'pallet' }, ['order_type']),
  invalid('order type in capitals', { order_type: 'Package' }, ['order_type']),

  // country_code: ISO 3166-1 alpha-2, uppercase.
  valid('country DK', { 'receiver.address.country_code': 'DK' }),
  valid('countries AD and ZW, first and last of the list', {
    'sender.address.country_code': 'AD',
    'receiver.address.country_code': 'ZW',
  }),
  invalid('lowercase country dk', { 'receiver.address.country_code': 'dk' }, [
    'receiver.address.country_code',
  ]),
  invalid('unassigned country ZZ', { 'receiver.address.country_code': 'ZZ' }, [
    'receiver.address.country_code',
  ]),
  invalid('user-assigned country XK', { 'receiver.address.country_code': 'XK' }, [
    'receiver.address.country_code',
  ]),
  invalid('withdrawn country AN', { 'sender.address.country_code': 'AN' }, [
    'sender.address.country_code',
  ]),
  invalid('three-letter country DNK', { 'sender.address.country_code': 'DNK' }, [
    'sender.address.country_code',
  ]),

  // Optional fields.
  valid('no receiver email', { 'receiver.email': undefined }),
  valid('no sender company name', { 'sender.company_name': undefined }),
  invalid('a receiver email that is not one', { 'receiver.email': 'karen' }, ['receiver.email']),

  // Ignored fields and several problems at once.
  valid('pricing fields and an account id', {
    pricing: { total: 99 },
    total_price: 99,
    unit_price: 9,
    account_id: 'someone-else',
  }),
  invalid(
    'missing reference, weight 31 kg and quantity 0 together',
    { reference: undefined, [line('weight_kg')]: 31, [line('quantity')]: 0 },
    ['reference', line('quantity'), line('weight_kg')],
  ),
];

export interface ListCase {
  name: string;
  /** The parameters as they appear in the query string. */
  query: Record<string, string>;
  /** The same query through the client, where it can express it. */
  client?: ListQuery;
  /** For a valid query: the paging the answer's meta must echo. */
  meta?: { page: number; per_page: number };
  /** Absent for a valid query; else exactly the parameters the errors must name. */
  errors?: string[];
}

export const listCases: ListCase[] = [
  { name: 'no parameters: page 1 of 50', query: {}, client: {}, meta: { page: 1, per_page: 50 } },
  {
    name: 'per_page 200',
    query: { per_page: '200' },
    client: { perPage: 200 },
    meta: { page: 1, per_page: 200 },
  },
  {
    name: 'per_page 1',
    query: { per_page: '1' },
    client: { perPage: 1 },
    meta: { page: 1, per_page: 1 },
  },
  {
    name: 'per_page 201',
    query: { per_page: '201' },
    client: { perPage: 201 },
    errors: ['per_page'],
  },
  { name: 'per_page 0', query: { per_page: '0' }, client: { perPage: 0 }, errors: ['per_page'] },
  { name: 'per_page abc', query: { per_page: 'abc' }, errors: ['per_page'] },
  { name: 'page 2', query: { page: '2' }, client: { page: 2 }, meta: { page: 2, per_page: 50 } },
  { name: 'page 0', query: { page: '0' }, client: { page: 0 }, errors: ['page'] },
  { name: 'page -1', query: { page: '-1' }, client: { page: -1 }, errors: ['page'] },
  { name: 'page 1.5', query: { page: '1.5' }, client: { page: 1.5 }, errors: ['page'] },
  {
    name: 'status shipped',
    query: { status: 'shipped' },
    client: { status: 'shipped' },
    meta: { page: 1, per_page: 50 },
  },
  {
    name: 'status lost',
    query: { status: 'lost' },
    client: { status: 'lost' },
    errors: ['status'],
  },
  {
    name: 'created_after as a date',
    query: { created_after: '2026-11-22' },
    meta: { page: 1, per_page: 50 },
  },
  {
    name: 'created_after as a UTC date-time',
    query: { created_after: '2026-11-22T09:00:00Z' },
    meta: { page: 1, per_page: 50 },
  },
  {
    name: 'created_after with the Copenhagen offset',
    query: { created_after: '2026-11-22T10:00:00+01:00' },
    client: { createdAfter: new Date('2026-11-22T09:00:00Z') },
    meta: { page: 1, per_page: 50 },
  },
  {
    name: 'created_after in summer time',
    query: { created_after: '2026-07-01T12:00:00+02:00' },
    client: { createdAfter: new Date('2026-07-01T10:00:00Z') },
    meta: { page: 1, per_page: 50 },
  },
  {
    name: 'created_after yesterday',
    query: { created_after: 'yesterday' },
    errors: ['created_after'],
  },
  {
    name: 'created_after 30 February',
    query: { created_after: '2026-02-30' },
    errors: ['created_after'],
  },
  {
    name: 'several bad parameters at once',
    query: { per_page: '201', page: '0', status: 'lost' },
    client: { perPage: 201, page: 0, status: 'lost' },
    errors: ['page', 'per_page', 'status'],
  },
];
