import { describe, expect, it } from 'vitest';
import { checkEligibility } from '../../src/domain/eligibility.js';
import {
  decodeSentLines,
  decodeSentUnits,
  describeLeftOut,
  encodeSentUnits,
  type FulfillmentUnits,
  holdsSentUnits,
  recheckDue,
  shipmentContents,
  shippedItems,
  waitCountsFrom,
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

  it('waits on an open fulfillment order Shopify does not let the app fulfil yet, saying so', () => {
    const mug = anItem({ title: 'Mug' });
    const vase = anItem({ title: 'Vase' });
    const order = anOrder({
      lineItems: [mug, vase],
      fulfillmentOrders: [
        aFulfillmentOrder([mug], { supportedActions: [] }),
        aFulfillmentOrder([vase], { location: AARHUS }),
      ],
    });
    const contents = shipmentContents(order, []);
    expect(contents.lines.map((l) => l.item.title)).toEqual(['Vase']);
    expect(contents.leftOut).toEqual([]);
    expect(contents.held).toMatchObject([{ title: 'Mug', quantity: 1, until: null }]);
    // A wait like a hold: the whole shipment once Shopify lets the app fulfil it.
    expect(checkEligibility(order, someRules(), contents)).toEqual({
      eligible: false,
      code: 'held',
      reason:
        'Waiting: 1 × Mug cannot be fulfilled by an app yet (its fulfillment order offers no fulfilment) in Shopify; the whole shipment is registered once it is released.',
    });
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

  it('ships SHIPPING only, and PICKUP_POINT when told, never a digital line', () => {
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
    expect(shipped(order)).toEqual([['SHIPPING', 1]]);
    expect(describeLeftOut(shipmentContents(order, []).leftOut)).toContain(
      '1 × PICKUP_POINT is for a pickup point, whose address Shopify does not give reliably',
    );
    const told = shipmentContents(order, { collectFromLocations: [], shipPickupPoints: true });
    expect(shippedItems(told).map((i) => [i.title, i.quantity])).toEqual([
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

  describe('later deliveries (fulfillment orders scheduled to open later)', () => {
    const now = new Date('2026-11-26T12:00:00Z');
    const coffee = anItem({ title: 'Coffee box', quantity: 3 });
    const scheduled = (fulfillAt: string) => ({
      status: 'SCHEDULED',
      supportedActions: ['MARK_AS_OPEN'],
      fulfillAt,
    });
    // A prepaid subscription: the first box now, one per later delivery.
    const subscription = (first: Parameters<typeof aFulfillmentOrder>[1] = {}) =>
      anOrder({
        lineItems: [coffee],
        fulfillmentOrders: [
          aFulfillmentOrder([{ ...coffee, unfulfilledQuantity: 1 }], first),
          aFulfillmentOrder(
            [{ ...coffee, unfulfilledQuantity: 1 }],
            scheduled('2027-02-10T08:00:00Z'),
          ),
          aFulfillmentOrder(
            [{ ...coffee, unfulfilledQuantity: 1 }],
            scheduled('2027-01-10T08:00:00Z'),
          ),
        ],
      });

    it('ships what is open now, leaving the later deliveries out with the reason', () => {
      const order = subscription();
      const contents = shipmentContents(order, [], { now });
      expect(shippedItems(contents).map((i) => [i.title, i.quantity])).toEqual([['Coffee box', 1]]);
      expect(contents.held).toEqual([]);
      expect(describeLeftOut(contents.leftOut)).toBe(
        '2 × Coffee box are scheduled for later deliveries (next on 2027-01-10): the provider takes one shipment per order',
      );
      expect(checkEligibility(order, someRules(), contents)).toMatchObject({ eligible: true });
      expect(decodeSentUnits(encodeSentUnits(contents))).toEqual(new Map([[coffee.id, 1]]));
    });

    it('waits while nothing is open yet, until the first opens', () => {
      const order = subscription(scheduled('2026-12-10T08:00:00Z'));
      const contents = shipmentContents(order, [], { now });
      expect(contents.lines).toEqual([]);
      expect(contents.held.map((h) => h.until)).toEqual(['2026-12-10T08:00:00Z']);
      expect(contents.leftOut.map((u) => [u.reason, u.quantity])).toEqual([['later', 2]]);
      expect(checkEligibility(order, someRules(), contents)).toEqual({
        eligible: false,
        code: 'held',
        reason:
          'Waiting: 1 × Coffee box is scheduled for 2026-12-10T08:00:00Z in Shopify; the shipment is registered once it is released.',
      });
    });

    it('ships a delivery staff opened early ("Fulfill early"), with the rest left out', () => {
      const order = subscription({ status: 'OPEN', fulfillAt: '2026-12-10T08:00:00Z' });
      const contents = shipmentContents(order, [], { now });
      expect(contents.lines.map((l) => l.quantity)).toEqual([1]);
      expect(contents.leftOut.map((u) => [u.reason, u.quantity])).toEqual([['later', 2]]);
    });

    it('counts a delivery due after the send as a later one after it opens too', () => {
      const order = subscription();
      const sentAt = new Date('2026-11-26T12:00:00Z');
      // Opened on its date, after the shipment was sent: still not part of it.
      order.fulfillmentOrders[2] = { ...order.fulfillmentOrders[2]!, status: 'OPEN' };
      const sent = shipmentContents(order, [], { sentAt });
      expect(sent.lines.map((l) => l.fulfillmentOrderId)).toEqual([order.fulfillmentOrders[0]!.id]);
      expect(sent.leftOut.map((u) => [u.reason, u.quantity])).toEqual([['later', 2]]);
      // Once the first box is fulfilled nothing of it is left, and the later ones still wait on
      // no one: they are left out, never held.
      order.fulfillmentOrders[0] = {
        ...order.fulfillmentOrders[0]!,
        lineItems: order.fulfillmentOrders[0]!.lineItems.map((l) => ({
          ...l,
          remainingQuantity: 0,
        })),
      };
      expect(shipmentContents(order, [], { sentAt }).held).toEqual([]);
    });

    it('keeps the whole-order wait for a hold, and for a schedule past its date', () => {
      const held = subscription({
        status: 'ON_HOLD',
        holdReasons: ['Other'],
        supportedActions: [],
      });
      const contents = shipmentContents(held, [], { now });
      expect(contents.held.map((h) => [h.why, h.until])).toEqual([['is on hold (Other)', null]]);
      expect(contents.leftOut.map((u) => u.reason)).toEqual(['later']);

      const overdue = subscription(scheduled('2026-11-26T11:00:00Z'));
      expect(shipmentContents(overdue, [], { now }).held.map((h) => h.until)).toEqual([
        '2026-11-26T11:00:00Z',
      ]);
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

  it('keeps the units sent with their fulfillment order lines, and reads them back', () => {
    const mug = anItem({ id: 'gid://shopify/LineItem/77', quantity: 2 });
    const contents = shipmentContents(anOrder({ lineItems: [mug] }), []);
    const line = contents.lines[0]!;
    const kept = encodeSentUnits(contents);
    expect(decodeSentUnits(kept)).toEqual(new Map([['gid://shopify/LineItem/77', 2]]));
    expect(decodeSentLines(kept)).toEqual([
      {
        lineItemId: 'gid://shopify/LineItem/77',
        quantity: 2,
        fulfillmentOrderId: line.fulfillmentOrderId,
        fulfillmentOrderLineItemId: line.fulfillmentOrderLineItemId,
        locationId: line.location.id,
      },
    ]);
    expect(decodeSentUnits(undefined)).toBeNull();
  });

  it('sums a line split over fulfillment orders, and reads units kept without their lines', () => {
    const split = '77x1@5.50.1,77x2@6.60';
    expect(decodeSentUnits(split)).toEqual(new Map([['gid://shopify/LineItem/77', 3]]));
    expect(decodeSentLines(split)?.map((l) => [l.fulfillmentOrderId, l.locationId])).toEqual([
      ['gid://shopify/FulfillmentOrder/5', 'gid://shopify/Location/1'],
      ['gid://shopify/FulfillmentOrder/6', null],
    ]);
    // Kept before the lines were: units only, and no lines to fulfil unread.
    expect(decodeSentUnits('77x2')).toEqual(new Map([['gid://shopify/LineItem/77', 2]]));
    expect(decodeSentLines('77x2')).toBeNull();
  });
});

describe('recheckDue', () => {
  const now = new Date('2026-11-26T12:00:00Z');
  const held = (until: string | null) => ({
    lineItemId: 'gid://shopify/LineItem/1',
    title: 'Mug',
    quantity: 1,
    why: 'is held',
    until,
  });

  const later = (ms: number) => new Date(now.getTime() + ms);
  const MINUTE = 60_000;

  it('backs off while anything is on hold: 5 minutes first, then as long as it waited, at most an hour', () => {
    const onHold = [held('2030-01-01T09:00:00Z'), held(null)];
    expect(recheckDue(onHold, now)).toEqual(later(5 * MINUTE));
    const since = (minutes: number) => new Date(now.getTime() - minutes * MINUTE);
    expect(recheckDue(onHold, now, since(5))).toEqual(later(5 * MINUTE));
    expect(recheckDue(onHold, now, since(10))).toEqual(later(10 * MINUTE));
    expect(recheckDue(onHold, now, since(40))).toEqual(later(40 * MINUTE));
    expect(recheckDue(onHold, now, since(17 * 60))).toEqual(later(60 * MINUTE));
  });

  it('reads schedules alone again when the first opens, and every 6 hours before (staff may fulfil early)', () => {
    expect(recheckDue([held('2030-01-01T09:00:00Z'), held('2029-06-01T00:00:00Z')], now)).toEqual(
      later(6 * 60 * MINUTE),
    );
    const since = new Date(now.getTime() - 30 * 24 * 60 * MINUTE);
    expect(recheckDue([held('2029-06-01T00:00:00Z')], now, since)).toEqual(later(6 * 60 * MINUTE));
    expect(recheckDue([held(later(20 * MINUTE).toISOString())], now)).toEqual(later(20 * MINUTE));
    expect(recheckDue([held(later(7 * 60 * MINUTE).toISOString())], now)).toEqual(
      later(6 * 60 * MINUTE),
    );
    // A hold alongside keeps its back-off, at most an hour.
    expect(recheckDue([held('2029-06-01T00:00:00Z'), held(null)], now, since)).toEqual(
      later(60 * MINUTE),
    );
  });

  it('backs off from the date of a schedule past it and still scheduled, from the first step', () => {
    const daysAgo = new Date(now.getTime() - 3 * 24 * 60 * MINUTE);
    const ago = (minutes: number) => new Date(now.getTime() - minutes * MINUTE).toISOString();
    expect(recheckDue([held(ago(2))], now, daysAgo)).toEqual(later(5 * MINUTE));
    expect(recheckDue([held(ago(7))], now, daysAgo)).toEqual(later(7 * MINUTE));
    expect(recheckDue([held(ago(30))], now, daysAgo)).toEqual(later(30 * MINUTE));
    expect(recheckDue([held(ago(300))], now, daysAgo)).toEqual(later(60 * MINUTE));
    // Waiting began after the date: counted from the wait.
    expect(recheckDue([held('2020-01-01T00:00:00Z')], now)).toEqual(later(5 * MINUTE));
  });
});

describe('waitCountsFrom', () => {
  const since = new Date('2026-11-01T12:00:00Z');
  const held = (until: string | null) => ({
    lineItemId: 'gid://shopify/LineItem/1',
    title: 'Mug',
    quantity: 1,
    why: 'is held',
    until,
  });

  it('counts a wait from its start, but one on schedules alone from the first date', () => {
    expect(waitCountsFrom([held(null), held('2026-12-24T00:00:00Z')], since)).toEqual(since);
    expect(
      waitCountsFrom([held('2027-01-10T08:00:00Z'), held('2026-12-24T00:00:00Z')], since),
    ).toEqual(new Date('2026-12-24T00:00:00Z'));
    // Scheduled before the wait began (still scheduled past its date): from the start.
    expect(waitCountsFrom([held('2026-10-01T00:00:00Z')], since)).toEqual(since);
  });
});

describe('holdsSentUnits', () => {
  const sentAt = Date.parse('2026-11-20T10:00:00Z');
  const asked = new Map([['gid://shopify/LineItem/1', 2]]);
  const made = (overrides: Partial<FulfillmentUnits> = {}): FulfillmentUnits => ({
    createdAt: '2026-11-20T11:00:00Z',
    locationId: SHOP.id,
    locationName: SHOP.name,
    atFulfillmentService: false,
    lineItems: [{ lineItemId: 'gid://shopify/LineItem/1', quantity: 1 }],
    ...overrides,
  });

  it('takes an own location’s fulfillment of a sent line, made since the send', () => {
    expect(holdsSentUnits(made(), asked, [], sentAt)).toBe(true);
  });

  it('never takes a fulfillment service’s, even when every location is collected from', () => {
    const service = made({
      locationId: SERVICE.id,
      locationName: SERVICE.name,
      atFulfillmentService: true,
    });
    expect(holdsSentUnits(service, asked, [], sentAt)).toBe(false);
    expect(holdsSentUnits(service, asked, [SERVICE.name], sentAt)).toBe(false);
  });

  it('never takes one made before the send, elsewhere, or of a line not sent', () => {
    expect(holdsSentUnits(made({ createdAt: '2026-11-20T09:59:59Z' }), asked, [], sentAt)).toBe(
      false,
    );
    expect(holdsSentUnits(made(), asked, [AARHUS.name], sentAt)).toBe(false);
    const other = made({ lineItems: [{ lineItemId: 'gid://shopify/LineItem/2', quantity: 1 }] });
    expect(holdsSentUnits(other, asked, [], sentAt)).toBe(false);
  });
});
