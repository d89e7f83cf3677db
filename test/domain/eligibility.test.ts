import { describe, expect, it } from 'vitest';
import { checkEligibility, precheckEligibility } from '../../src/domain/eligibility.js';
import type { StoreOrder, StoreOrderSummary } from '../../src/domain/order.js';
import { anItem, anOrder, someRules } from './builders.js';

const eligible = { eligible: true };

describe('checkEligibility', () => {
  it('accepts a paid, unfulfilled order that needs shipping', () => {
    expect(checkEligibility(anOrder(), someRules())).toEqual(eligible);
  });

  it('skips a cancelled order', () => {
    const order = anOrder({ cancelledAt: '2026-07-01T11:00:00Z' });
    expect(checkEligibility(order, someRules())).toEqual({
      eligible: false,
      code: 'cancelled',
      reason: 'Order is cancelled.',
    });
  });

  it('skips test orders only when told to', () => {
    const order = anOrder({ test: true });
    expect(checkEligibility(order, someRules())).toMatchObject({ eligible: false, code: 'test' });
    expect(checkEligibility(order, someRules({ skipTestOrders: false }))).toEqual(eligible);
  });

  it('skips an order that is already fulfilled, but not a partly fulfilled one', () => {
    expect(
      checkEligibility(anOrder({ fulfillmentStatus: 'fulfilled' }), someRules()),
    ).toMatchObject({ eligible: false, code: 'fulfilled', reason: 'Order is already fulfilled.' });
    expect(
      checkEligibility(anOrder({ fulfillmentStatus: 'partially_fulfilled' }), someRules()),
    ).toEqual(eligible);
  });

  it('needs a financial status from the ready list, compared without case', () => {
    expect(checkEligibility(anOrder({ financialStatus: 'pending' }), someRules())).toEqual({
      eligible: false,
      code: 'not_paid',
      reason: 'Financial status is pending; ready statuses are: paid.',
    });
    expect(checkEligibility(anOrder({ financialStatus: ' ' }), someRules())).toMatchObject({
      code: 'not_paid',
      reason: 'Financial status is unknown; ready statuses are: paid.',
    });
    const rules = someRules({ financialStatuses: ['paid', 'Partially_Refunded'] });
    expect(checkEligibility(anOrder({ financialStatus: 'PARTIALLY_REFUNDED' }), rules)).toEqual(
      eligible,
    );
  });

  it('needs at least one line item that requires shipping and is still ordered', () => {
    const nothingToShip = anOrder({
      lineItems: [anItem({ requiresShipping: false }), anItem({ quantity: 0 })],
    });
    expect(checkEligibility(nothingToShip, someRules())).toEqual({
      eligible: false,
      code: 'no_shipping',
      reason: '1 × Sneaker needs no shipping; nothing left for the provider to ship.',
    });
    const oneToShip = anOrder({ lineItems: [anItem({ requiresShipping: false }), anItem()] });
    expect(checkEligibility(oneToShip, someRules())).toEqual(eligible);
  });

  it('skips an order carrying an excluded tag, ignoring case and spaces', () => {
    const rules = someRules({ excludeTags: ['hold', 'No-Ship'] });
    expect(checkEligibility(anOrder({ tags: [' no-ship '] }), rules)).toEqual({
      eligible: false,
      code: 'tag_excluded',
      reason: 'Order has the excluded tag no-ship.',
    });
    expect(checkEligibility(anOrder({ tags: ['ship-later'] }), rules)).toEqual(eligible);
  });

  it('when include tags are set, needs one of them', () => {
    const rules = someRules({ includeTags: ['Ship-Me', 'priority'] });
    expect(checkEligibility(anOrder({ tags: ['other'] }), rules)).toEqual({
      eligible: false,
      code: 'tag_not_included',
      reason: 'Order has none of the required tags: ship-me, priority.',
    });
    expect(checkEligibility(anOrder({ tags: ['SHIP-ME'] }), rules)).toEqual(eligible);
    expect(checkEligibility(anOrder({ tags: [] }), someRules({ includeTags: [] }))).toEqual(
      eligible,
    );
  });

  it('lets an excluded tag win over an included one', () => {
    const rules = someRules({ includeTags: ['ship-me'], excludeTags: ['hold'] });
    expect(checkEligibility(anOrder({ tags: ['ship-me', 'hold'] }), rules)).toMatchObject({
      code: 'tag_excluded',
    });
  });

  it('reports the first rule that fails: cancellation before payment', () => {
    const order = anOrder({ cancelledAt: '2026-07-01T11:00:00Z', financialStatus: 'refunded' });
    expect(checkEligibility(order, someRules())).toMatchObject({ code: 'cancelled' });
  });
});

describe('precheckEligibility (an order as the store lists it)', () => {
  /** The listing of `order`: its header, and whether Shopify says any of it needs shipping. */
  function listed(order: StoreOrder, requiresShipping = true): StoreOrderSummary {
    const { email, phone, shippingAddress, lineItems, ...header } = order;
    return { ...header, requiresShipping };
  }

  it('applies the same rules, in the same order, with the same reasons', () => {
    const rules = someRules({ excludeTags: ['hold'], includeTags: ['ship-me'] });
    const orders = [
      anOrder({ tags: ['ship-me'] }),
      anOrder({ cancelledAt: '2026-07-01T11:00:00Z', financialStatus: 'refunded' }),
      anOrder({ test: true }),
      anOrder({ fulfillmentStatus: 'fulfilled' }),
      anOrder({ financialStatus: 'pending', tags: ['hold'] }),
      anOrder({ tags: ['ship-me', 'hold'] }),
      anOrder({ tags: ['other'] }),
    ];
    for (const order of orders) {
      expect(precheckEligibility(listed(order), rules)).toEqual(checkEligibility(order, rules));
    }
  });

  it("takes Shopify's requiresShipping for the line items: false is no_shipping, after payment", () => {
    expect(precheckEligibility(listed(anOrder(), false), someRules())).toEqual({
      eligible: false,
      code: 'no_shipping',
      reason: 'Order has no line items that require shipping.',
    });
    const unpaid = listed(anOrder({ financialStatus: 'pending' }), false);
    expect(precheckEligibility(unpaid, someRules())).toMatchObject({ code: 'not_paid' });
  });

  it('lets through an order the full check then refuses: its shippable lines were removed', () => {
    const removed = anOrder({ lineItems: [anItem({ quantity: 0 })] });
    expect(precheckEligibility(listed(removed, true), someRules())).toEqual(eligible);
    expect(checkEligibility(removed, someRules())).toMatchObject({ code: 'no_shipping' });
  });
});
