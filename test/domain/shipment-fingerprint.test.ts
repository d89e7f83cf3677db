import { describe, expect, it } from 'vitest';
import {
  changedParts,
  decodeFingerprint,
  decodeSettings,
  describeChanges,
  encodeFingerprint,
  encodeSettings,
  shipmentFingerprint,
} from '../../src/domain/shipment-fingerprint.js';
import { aFulfillmentOrder, anAddress, anItem, anOrder } from './builders.js';

const SETTINGS = { documentTag: 'document', collectFromLocations: [] };
const fingerprint = (overrides: Parameters<typeof anOrder>[0] = {}) =>
  shipmentFingerprint(anOrder(overrides), SETTINGS);

describe('shipmentFingerprint', () => {
  it('is the same for the same order, and holds no personal data', () => {
    const print = fingerprint();

    expect(fingerprint()).toEqual(print);
    const stored = encodeFingerprint(print);
    expect(stored).toMatch(/^v=2;receiver=[0-9a-f]{16};lines=[0-9a-f]{16};weights=[0-9a-f]{16}$/);
    for (const value of ['Ada', 'Lovelace', 'Nørregade', '1165', '+45', 'Sneaker', 'Shoes']) {
      expect(stored).not.toContain(value);
    }
  });

  it.each([
    ['postal code', { shippingAddress: anAddress({ zip: '2100' }) }],
    ['street', { shippingAddress: anAddress({ address2: '3. sal' }) }],
    ['name', { shippingAddress: anAddress({ name: 'Grace Hopper' }) }],
    ['phone', { shippingAddress: anAddress({ phone: '+45 99 88 77 66' }) }],
    ['no address', { shippingAddress: null }],
  ])('sees a change of the receiver (%s) and nothing else', (_what, change) => {
    expect(changedParts(fingerprint(), fingerprint(change))).toEqual(['receiver']);
  });

  it('sees a changed quantity, an added line and a document tag as a change of the lines', () => {
    expect(
      changedParts(fingerprint(), fingerprint({ lineItems: [anItem({ quantity: 2 })] })),
    ).toEqual(['lines']);
    expect(changedParts(fingerprint(), fingerprint({ tags: ['Document'] }))).toEqual(['lines']);
    expect(
      changedParts(
        fingerprint(),
        fingerprint({ lineItems: [anItem(), anItem({ productType: 'Socks', quantity: 3 })] }),
      ),
    ).toEqual(['lines', 'weights']);
  });

  it('sees a changed unit weight as a change of the weights', () => {
    const heavier = anItem({ weight: { value: 1200, unit: 'GRAMS' } });
    expect(changedParts(fingerprint(), fingerprint({ lineItems: [heavier] }))).toEqual(['weights']);
  });

  it('ignores what the shipment is not made from: titles, email, line order, tags, blanks', () => {
    const socks = anItem({ title: 'Socks', productType: 'Socks', quantity: 2 });
    const base = fingerprint({ lineItems: [anItem(), socks] });

    const same = fingerprint({
      lineItems: [socks, anItem({ title: 'Running shoe' })],
      email: 'someone.else@example.com',
      tags: ['vip', 'shipment-registered'],
      shippingAddress: anAddress({ city: '  København K ', address2: '' }),
      note: undefined,
    } as Parameters<typeof anOrder>[0]);
    expect(changedParts(base, same)).toEqual([]);
  });

  it('ignores lines that need no shipping', () => {
    const gift = anItem({ title: 'Gift card', requiresShipping: false });
    expect(changedParts(fingerprint(), fingerprint({ lineItems: [anItem(), gift] }))).toEqual([]);
  });

  it('reads an item without a weight as such, not as the default weight it is sent with', () => {
    const withoutWeight = fingerprint({ lineItems: [anItem({ weight: null })] });
    const atDefault = fingerprint({
      lineItems: [anItem({ weight: { value: 0.5, unit: 'KILOGRAMS' } })],
    });

    // DEFAULT_WEIGHT_KG may change; the order did not.
    expect(changedParts(withoutWeight, atDefault)).toEqual(['weights']);
    expect(fingerprint({ lineItems: [anItem({ weight: { value: 0, unit: 'GRAMS' } })] })).toEqual(
      withoutWeight,
    );
  });
});

describe('the stored form', () => {
  it('reads back what was written, and nothing else', () => {
    const print = fingerprint();
    expect(decodeFingerprint(encodeFingerprint(print))).toEqual(print);
    expect(decodeFingerprint(undefined)).toBeNull();
    expect(decodeFingerprint('receiver=abc')).toBeNull();
    expect(decodeFingerprint('receiver=Nørregade 1;lines=x;weights=y')).toBeNull();
  });

  it('names the parts that changed for staff', () => {
    expect(describeChanges(['lines'])).toBe('the lines (items or quantities)');
    expect(describeChanges(['receiver', 'lines', 'weights'])).toBe(
      'the receiver (name, address or phone), the lines (items or quantities) and the weights',
    );
  });
});

describe('the settings kept with what was sent', () => {
  it('read back as they were, only the three that shape the fingerprint', () => {
    const settings = {
      documentTag: 'paper',
      collectFromLocations: ['Shop location', 'gid://shopify/Location/2'],
      shipPickupPoints: true,
      defaultWeightKg: 0.5,
    };

    expect(decodeSettings(encodeSettings(settings, anOrder({ fulfillmentOrders: [] })))).toEqual({
      documentTag: 'paper',
      collectFromLocations: ['Shop location', 'gid://shopify/Location/2'],
      shipPickupPoints: true,
    });
  });

  it("keep the ids of the order's locations named, so a location renamed since is still the one sent from", () => {
    const mug = anItem();
    const vase = anItem();
    const at = (id: string, name: string, isFulfillmentService = false) => ({
      location: { id: `gid://shopify/Location/${id}`, name, isFulfillmentService },
    });
    const order = anOrder({
      lineItems: [mug, vase],
      fulfillmentOrders: [
        aFulfillmentOrder([mug], at('1', 'Shop location')),
        aFulfillmentOrder([vase], at('2', 'Aarhus warehouse')),
      ],
    });
    const settings = {
      documentTag: 'document',
      collectFromLocations: ['shop location'],
      shipPickupPoints: false,
    };
    const kept = decodeSettings(encodeSettings(settings, order))!;
    expect(kept.collectFromLocations).toEqual(['shop location', 'gid://shopify/Location/1']);

    const renamed = anOrder({
      lineItems: [mug, vase],
      fulfillmentOrders: [
        aFulfillmentOrder([mug], at('1', 'Copenhagen shop')),
        aFulfillmentOrder([vase], at('2', 'Aarhus warehouse')),
      ],
    });
    expect(shipmentFingerprint(renamed, kept)).toEqual(shipmentFingerprint(order, settings));
    // Kept as configured only (the older form), the renamed location is no longer collected from.
    const asConfigured = decodeSettings(JSON.stringify(settings))!;
    expect(shipmentFingerprint(renamed, asConfigured).lines).not.toBe(
      shipmentFingerprint(order, settings).lines,
    );
  });

  it('keep no ids when every own location is collected from', () => {
    const settings = { documentTag: 'document', collectFromLocations: [], shipPickupPoints: false };
    expect(decodeSettings(encodeSettings(settings, anOrder()))?.collectFromLocations).toEqual([]);
  });

  it('read as none when absent or illegible', () => {
    for (const text of [undefined, null, '', '{', '{"documentTag":"d"}', '[]']) {
      expect(decodeSettings(text)).toBeNull();
    }
  });
});
