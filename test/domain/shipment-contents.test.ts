import { describe, expect, it } from 'vitest';
import { checkEligibility } from '../../src/domain/eligibility.js';
import {
  decodeSentUnits,
  describeLeftOut,
  encodeSentUnits,
  shipmentContents,
  shippedItems,
} from '../../src/domain/shipment-contents.js';
import { aFulfillmentOrder, anItem, anOrder, someRules } from './builders.js';

const SHOP = { id: 'gid://shopify/Location/1', name: 'Shop location', isFulfillmentService: false };
const AARHUS = {
  id: 'gid://shopify/Location/2',
  name: 'Aarhus warehouse',
  isFulfillmentService: false,
};
const SERVICE = {
  id: 'gid://shopify/Location/3',
  name: "Another app's warehouse",
  isFulfillmentService: true,
};

const shipped = (order: ReturnType<typeof anOrder>, collectFrom: string[] = []) =>
  shippedItems(shipmentContents(order, collectFrom)).map((i) => [i.title, i.quantity]);

describe('shipmentContents', () => {
  it("counts what is left on the fulfillment orders, not the line's quantity", () => {
    const blanket = anItem({ title: 'Blanket', quantity: 3, unfulfilledQuantity: 1 });
    const mug = anItem({ title: 'Mug' });
    const order = anOrder({ lineItems: [blanket, mug] });
    const contents = shipmentContents(order, []);
    expect(shippedItems(contents).map((i) => [i.title, i.quantity])).toEqual([
      ['Blanket', 1],
      ['Mug', 1],
    ]);
    expect(describeLeftOut(contents.leftOut)).toBe('2 of 3 × Blanket already fulfilled');
  });

  it("leaves out a fulfillment service's units, seen or not, and other locations when told", () => {
    const bench = anItem({ title: 'Bench', quantity: 3 });
    const mug = anItem({ title: 'Mug' });
    const vase = anItem({ title: 'Vase' });
    const seen = anOrder({
      lineItems: [bench, mug, vase],
      fulfillmentOrders: [
        aFulfillmentOrder([bench], { location: SERVICE }),
        aFulfillmentOrder([mug], { location: SHOP }),
        aFulfillmentOrder([vase], { location: AARHUS }),
      ],
    });
    expect(shipped(seen)).toEqual([
      ['Mug', 1],
      ['Vase', 1],
    ]);
    expect(shipped(seen, ['Shop location'])).toEqual([['Mug', 1]]);
    expect(shipped(seen, ['2'])).toEqual([['Vase', 1]]);

    // Without read_third_party_fulfillment_orders the service's fulfillment order is absent.
    const unseen = { ...seen, fulfillmentOrders: seen.fulfillmentOrders.slice(1) };
    const contents = shipmentContents(unseen, ['Shop location']);
    expect(describeLeftOut(contents.leftOut)).toBe(
      '1 × Vase is at Aarhus warehouse, which the provider does not collect from; 3 × Bench is on a fulfillment order the connector cannot see (a fulfillment service or another app)',
    );
  });

  it('ships SHIPPING and PICKUP_POINT only, never a digital line', () => {
    const lines = ['SHIPPING', 'PICKUP_POINT', 'PICK_UP', 'LOCAL', 'RETAIL', 'NONE'].map((method) =>
      anItem({ title: method }),
    );
    const ebook = anItem({ title: 'E-book', requiresShipping: false });
    const order = anOrder({
      lineItems: [...lines, ebook],
      fulfillmentOrders: [
        ...lines.map((item) => aFulfillmentOrder([item], { deliveryMethod: item.title })),
        aFulfillmentOrder([ebook]),
      ],
    });
    expect(shipped(order)).toEqual([
      ['SHIPPING', 1],
      ['PICKUP_POINT', 1],
    ]);
  });

  it('holds back on hold and scheduled units, and the order waits with the reason', () => {
    const mug = anItem({ title: 'Mug' });
    const vase = anItem({ title: 'Vase' });
    const order = anOrder({
      lineItems: [mug, vase],
      fulfillmentOrders: [
        aFulfillmentOrder([mug]),
        aFulfillmentOrder([vase], {
          status: 'ON_HOLD',
          holdReasons: ['Incorrect address'],
          location: AARHUS,
        }),
      ],
    });
    const contents = shipmentContents(order, []);
    expect(contents.held.map((h) => [h.title, h.quantity])).toEqual([['Vase', 1]]);
    expect(checkEligibility(order, someRules(), contents)).toEqual({
      eligible: false,
      code: 'held',
      reason:
        'Waiting: 1 × Vase is on hold (Incorrect address) in Shopify; the whole shipment is registered once it is released.',
    });
  });

  it('skips an order with nothing left, saying what was left out', () => {
    const blanket = anItem({ title: 'Blanket', quantity: 3, unfulfilledQuantity: 0 });
    const order = anOrder({ lineItems: [blanket] });
    expect(checkEligibility(order, someRules())).toEqual({
      eligible: false,
      code: 'no_shipping',
      reason: '3 of 3 × Blanket already fulfilled; nothing left for the provider to ship.',
    });
  });

  it('keeps the units sent by line item id, and reads them back', () => {
    const mug = anItem({ id: 'gid://shopify/LineItem/77', quantity: 2 });
    const contents = shipmentContents(anOrder({ lineItems: [mug] }), []);
    expect(encodeSentUnits(contents)).toBe('77x2');
    expect(decodeSentUnits('77x2')).toEqual(new Map([['gid://shopify/LineItem/77', 2]]));
    expect(decodeSentUnits(undefined)).toBeNull();
  });
});
