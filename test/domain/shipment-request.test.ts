import { describe, expect, it } from 'vitest';
import type { StoreOrder } from '../../src/domain/order.js';
import type { FieldErrors, ShipmentRequest } from '../../src/domain/shipment-contract.js';
import {
  buildShipmentRequest,
  type MappingResult,
  type ShipmentSettings,
} from '../../src/domain/shipment-request.js';
import { anAddress, anItem, anOrder, someSettings } from './builders.js';

function requestFor(
  order: StoreOrder,
  settings: ShipmentSettings = someSettings(),
): ShipmentRequest {
  const result = buildShipmentRequest(order, settings);
  if (!result.ok) throw new Error(`expected a request, got ${JSON.stringify(result.errors)}`);
  return result.request;
}

function errorsFor(order: StoreOrder, settings: ShipmentSettings = someSettings()): FieldErrors {
  const result: MappingResult = buildShipmentRequest(order, settings);
  if (result.ok) throw new Error('expected mapping errors');
  return result.errors;
}

describe('buildShipmentRequest: the request', () => {
  it('maps a complete order', () => {
    const order = anOrder({
      lineItems: [anItem({ quantity: 2, productType: 'Shoes' })],
      shippingAddress: anAddress({ company: 'Analytical Engines Ltd', countryCode: 'dk' }),
    });
    expect(requestFor(order)).toEqual({
      reference: '5551234',
      order_type: 'package',
      content_description: 'Shoes',
      sender: {
        name: 'Warehouse Desk',
        company_name: 'Example Goods ApS',
        phone: '+45 70 00 00 00',
        email: 'warehouse@example.com',
        address: { street: 'Lagervej 2', city: 'Odense', postal_code: '5000', country_code: 'DK' },
      },
      receiver: {
        name: 'Ada Lovelace',
        company_name: 'Analytical Engines Ltd',
        phone: '+45 11 22 33 44',
        address: {
          street: 'Nørregade 1',
          city: 'København K',
          postal_code: '1165',
          country_code: 'DK',
        },
      },
      packages: [{ quantity: 1, weight_kg: 2, length_cm: 30, width_cm: 20, height_cm: 10 }],
    });
  });

  it('leaves out the sender company and email when not configured', () => {
    const settings = someSettings();
    const sender = { ...settings.sender, company: undefined, email: undefined };
    const request = requestFor(anOrder(), { ...settings, sender });
    expect(request.sender).not.toHaveProperty('company_name');
    expect(request.sender).not.toHaveProperty('email');
  });

  it('joins address lines 1 and 2, and uses either alone', () => {
    const street = (address1: string | null, address2: string | null) =>
      requestFor(anOrder({ shippingAddress: anAddress({ address1, address2 }) })).receiver.address
        .street;
    expect(street('Nørregade 1', '2. th')).toBe('Nørregade 1, 2. th');
    expect(street('Nørregade 1', '  ')).toBe('Nørregade 1');
    expect(street(null, 'Nørregade 1')).toBe('Nørregade 1');
  });

  it("falls back to the order's phone when the address has none", () => {
    const phone = (addressPhone: string | null, orderPhone: string | null) =>
      requestFor(
        anOrder({ phone: orderPhone, shippingAddress: anAddress({ phone: addressPhone }) }),
      ).receiver.phone;
    expect(phone('+45 11 11 11 11', '+45 22 22 22 22')).toBe('+45 11 11 11 11');
    expect(phone(' ', '+45 22 22 22 22')).toBe('+45 22 22 22 22');
  });

  it('trims text and leaves out a blank company', () => {
    const receiver = requestFor(
      anOrder({ shippingAddress: anAddress({ name: '  Ada  ', zip: ' 1165 ', company: '  ' }) }),
    ).receiver;
    expect(receiver.name).toBe('Ada');
    expect(receiver.address.postal_code).toBe('1165');
    expect(receiver).not.toHaveProperty('company_name');
  });

  it('names the receiver after the company when the address has no name', () => {
    const order = anOrder({ shippingAddress: anAddress({ name: null, company: 'Engines Ltd' }) });
    expect(requestFor(order).receiver.name).toBe('Engines Ltd');
  });

  it("sends the receiver's email only when enabled and present", () => {
    const on = someSettings({ sendReceiverEmail: true });
    expect(requestFor(anOrder(), on).receiver.email).toBe('ada@example.com');
    expect(requestFor(anOrder()).receiver).not.toHaveProperty('email');
    expect(requestFor(anOrder({ email: ' ' }), on).receiver).not.toHaveProperty('email');
  });

  it('ships as a document when the order carries the document tag, in any case', () => {
    const type = (tags: string[], documentTag = 'document') =>
      requestFor(
        anOrder({ tags, lineItems: [anItem({ weight: null })] }),
        someSettings({ documentTag }),
      ).order_type;
    expect(type([])).toBe('package');
    expect(type(['vip', ' DOCUMENT '])).toBe('document');
    expect(type(['documents'])).toBe('package');
    expect(type(['Papers'], 'papers')).toBe('document');
  });

  it('never carries prices, even when the order object has them', () => {
    const priced = { ...anItem(), unitPrice: '49.50', total_price: '99.00' };
    const withPrices = {
      ...anOrder({ lineItems: [priced] }),
      totalPrice: '99.00',
      pricing: { total: 99 },
    } as unknown as StoreOrder;
    expect(JSON.stringify(requestFor(withPrices))).not.toMatch(/price|pricing|99/i);
  });
});

describe('buildShipmentRequest: content description', () => {
  const describe_ = (order: StoreOrder, contentDescription?: string) =>
    requestFor(order, someSettings({ contentDescription })).content_description;

  it('prefers the configured description', () => {
    expect(describe_(anOrder(), 'Spare parts')).toBe('Spare parts');
  });

  it('lists the distinct product types of shipped items', () => {
    const order = anOrder({
      lineItems: [
        anItem({ productType: 'Shoes' }),
        anItem({ productType: 'T-shirts' }),
        anItem({ productType: ' shoes ' }),
        anItem({ productType: 'Gift cards', requiresShipping: false }),
      ],
    });
    expect(describe_(order)).toBe('Shoes, T-shirts');
  });

  it('falls back to a generic word when no product has a type', () => {
    const untyped = [anItem({ productType: null, weight: null })];
    expect(describe_(anOrder({ lineItems: untyped }))).toBe('Merchandise');
    expect(describe_(anOrder({ lineItems: untyped, tags: ['document'] }))).toBe('Documents');
  });

  it('stays within 200 characters, cutting between whole types', () => {
    const lineItems = Array.from({ length: 40 }, (_, i) =>
      anItem({ productType: `Product type ${i}`, weight: { value: 10, unit: 'GRAMS' } }),
    );
    const text = describe_(anOrder({ lineItems }));
    expect(text.length).toBeLessThanOrEqual(200);
    expect(text.length).toBeGreaterThan(150);
    expect(text.endsWith(`Product type ${text.split(', ').length - 1}`)).toBe(true);
    const oneLongType = [anItem({ productType: 'x'.repeat(300) })];
    expect(describe_(anOrder({ lineItems: oneLongType }))).toHaveLength(200);
  });
});

describe('buildShipmentRequest: missing data', () => {
  it.each([
    ['postal code', { zip: null }, 'receiver.address.postal_code', 'no postal code'],
    ['city', { city: ' ' }, 'receiver.address.city', 'no city'],
    ['street', { address1: null, address2: '' }, 'receiver.address.street', 'no street'],
    ['country', { countryCode: null }, 'receiver.address.country_code', 'no country'],
    ['name', { name: null, company: null }, 'receiver.name', 'no name or company'],
  ])('reports a missing %s at its API path', (_, address, path, words) => {
    const errors = errorsFor(anOrder({ shippingAddress: anAddress(address) }));
    expect(Object.keys(errors)).toEqual([path]);
    expect(errors[path]).toEqual([`The order's shipping address has ${words}.`]);
  });

  it('reports a missing phone only when neither the address nor the order has one', () => {
    const errors = errorsFor(anOrder({ phone: null, shippingAddress: anAddress({ phone: null }) }));
    expect(errors).toEqual({
      'receiver.phone': ['Neither the shipping address nor the order has a phone number.'],
    });
  });

  it('reports a missing shipping address once, not field by field', () => {
    const errors = errorsFor(anOrder({ phone: '+45 22 22 22 22', shippingAddress: null }));
    expect(errors).toEqual({ 'receiver.address': ['The order has no shipping address.'] });
  });

  it('reports an order with nothing to ship', () => {
    const errors = errorsFor(
      anOrder({ lineItems: [anItem({ requiresShipping: false }), anItem({ quantity: 0 })] }),
    );
    expect(errors).toEqual({
      packages: ['Nothing of the order is left for the provider to ship.'],
    });
  });

  it('collects every problem at once', () => {
    const order = anOrder({
      phone: null,
      shippingAddress: anAddress({ zip: '', city: null, phone: null }),
      lineItems: [
        anItem({ title: 'Anvil', weight: { value: 45, unit: 'KILOGRAMS' } }),
        anItem({ title: 'Hammer' }),
        anItem({ title: 'Safe', weight: { value: 100, unit: 'POUNDS' } }),
      ],
    });
    const errors = errorsFor(
      order,
      someSettings({ defaultBox: { lengthCm: 121, widthCm: 20, heightCm: 10 } }),
    );
    expect(Object.keys(errors).sort()).toEqual([
      'packages',
      'packages.0.length_cm',
      'receiver.address.city',
      'receiver.address.postal_code',
      'receiver.phone',
    ]);
    expect(errors.packages).toEqual([
      "Line item 'Anvil' weighs 45 kg per unit; the most one package may weigh is 30 kg.",
      "Line item 'Safe' weighs 45.36 kg per unit; the most one package may weigh is 30 kg.",
    ]);
  });
});

describe('buildShipmentRequest: API bounds checked before sending', () => {
  it.each([
    ['length', { lengthCm: 121, widthCm: 20, heightCm: 10 }, 'packages.0.length_cm', 120],
    ['width', { lengthCm: 30, widthCm: 51, heightCm: 10 }, 'packages.0.width_cm', 50],
    ['height', { lengthCm: 30, widthCm: 20, heightCm: 51 }, 'packages.0.height_cm', 50],
  ])('refuses a configured box %s over the maximum', (_, defaultBox, path, max) => {
    const errors = errorsFor(anOrder(), someSettings({ defaultBox }));
    expect(errors[path]?.[0]).toContain(`may not be greater than ${max}`);
    expect(
      requestFor(
        anOrder(),
        someSettings({ defaultBox: { lengthCm: 120, widthCm: 50, heightCm: 50 } }),
      ).packages,
    ).toHaveLength(1);
  });

  it('reports the bound on every line that breaks it', () => {
    const order = anOrder({
      lineItems: [
        anItem({ quantity: 3, weight: { value: 20, unit: 'KILOGRAMS' } }),
        anItem({ quantity: 1 }),
      ],
    });
    const errors = errorsFor(
      order,
      someSettings({ defaultBox: { lengthCm: 30, widthCm: 60, heightCm: 10 } }),
    );
    expect(Object.keys(errors)).toEqual(['packages.0.width_cm', 'packages.1.width_cm']);
  });

  it('accepts a reference of 255 characters and refuses 256', () => {
    expect(requestFor(anOrder({ id: '9'.repeat(255) })).reference).toHaveLength(255);
    expect(errorsFor(anOrder({ id: '9'.repeat(256) }))).toEqual({
      reference: ['The reference may not be greater than 255 characters.'],
    });
  });

  it('uppercases a lowercase country code and refuses one ISO 3166-1 does not assign', () => {
    expect(
      requestFor(anOrder({ shippingAddress: anAddress({ countryCode: 'se' }) })).receiver.address
        .country_code,
    ).toBe('SE');
    // DNK is alpha-3; Shopify writes Kosovo as XK, a code ISO leaves to private use.
    for (const countryCode of ['DNK', 'XK']) {
      expect(errorsFor(anOrder({ shippingAddress: anAddress({ countryCode }) }))).toEqual({
        'receiver.address.country_code': [
          'The country code must be an ISO 3166-1 alpha-2 code in capitals, such as DK.',
        ],
      });
    }
  });

  it('refuses an invalid receiver email when emails are sent', () => {
    const order = anOrder({ email: 'not-an-email' });
    expect(errorsFor(order, someSettings({ sendReceiverEmail: true }))).toEqual({
      'receiver.email': ['The email must be a valid email address.'],
    });
    expect(buildShipmentRequest(order, someSettings()).ok).toBe(true);
  });
});
