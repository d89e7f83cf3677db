import type { Config } from '../../config/index.js';
import type { StoreOrder, StoreOrderHeader, StoreOrderSummary } from './order.js';
import { describeLeftOut, type ShipmentContents, shipmentContents } from './shipment-contents.js';
import { hasAnyTag, normaliseTag } from './text.js';

export type EligibilityRules = Config['eligibility'];

export type SkipCode =
  | 'cancelled'
  | 'test'
  | 'fulfilled'
  | 'not_paid'
  | 'no_shipping'
  | 'held'
  | 'tag_excluded'
  | 'tag_not_included';

export type Eligibility = { eligible: true } | { eligible: false; reason: string; code: SkipCode };

/** The full check before registering. Held contents wait: reread by reconciliation or on change. */
export function checkEligibility(
  order: StoreOrder,
  rules: EligibilityRules,
  contents: ShipmentContents = shipmentContents(order, []),
): Eligibility {
  const checked = applyRules({ ...order, shipsSomething: true }, rules);
  if (!checked.eligible) return checked;
  if (contents.held.length > 0) {
    // One shipment per order: what is open waits for what is held.
    const what = contents.lines.length > 0 ? 'the whole shipment' : 'the shipment';
    return skip(
      'held',
      `Waiting: ${describeLeftOut(contents.held)} in Shopify; ${what} is registered once it is released.`,
    );
  }
  if (contents.lines.length === 0) {
    const why = contents.leftOut.length > 0 ? `${describeLeftOut(contents.leftOut)}; ` : '';
    return skip('no_shipping', `${why}nothing left for the provider to ship.`);
  }
  return checked;
}

/** The same rules on a listed order, to decide whether to queue it: a pass is only a candidate. */
export function precheckEligibility(order: StoreOrderSummary, rules: EligibilityRules) {
  return applyRules({ ...order, shipsSomething: order.requiresShipping }, rules);
}

type EligibilityFacts = Pick<
  StoreOrderHeader,
  'cancelledAt' | 'test' | 'fulfillmentStatus' | 'financialStatus' | 'tags'
> & { shipsSomething: boolean };

/** Every rule, in report order, in one place so intake, reconciliation and worker agree. */
function applyRules(order: EligibilityFacts, rules: EligibilityRules): Eligibility {
  if (order.cancelledAt) return skip('cancelled', 'Order is cancelled.');
  if (rules.skipTestOrders && order.test) {
    return skip('test', 'Order is a test order and test orders are skipped.');
  }
  if (order.fulfillmentStatus?.trim().toLowerCase() === 'fulfilled') {
    return skip('fulfilled', 'Order is already fulfilled.');
  }

  const ready = rules.financialStatuses.map((s) => s.trim().toLowerCase());
  const status = order.financialStatus?.trim().toLowerCase() || undefined;
  if (!status || !ready.includes(status)) {
    const readyText = ready.length > 0 ? ready.join(', ') : 'none configured';
    return skip(
      'not_paid',
      `Financial status is ${status ?? 'unknown'}; ready statuses are: ${readyText}.`,
    );
  }

  if (!order.shipsSomething) {
    return skip('no_shipping', 'Order has no line items that require shipping.');
  }

  const excluded = hasAnyTag(order.tags, rules.excludeTags);
  if (excluded) {
    return skip('tag_excluded', `Order has the excluded tag ${normaliseTag(excluded)}.`);
  }
  const wanted = rules.includeTags.filter((t) => normaliseTag(t) !== '');
  if (wanted.length > 0 && !hasAnyTag(order.tags, wanted)) {
    const list = wanted.map(normaliseTag).join(', ');
    return skip('tag_not_included', `Order has none of the required tags: ${list}.`);
  }

  return { eligible: true };
}

function skip(code: SkipCode, reason: string): Eligibility {
  return { eligible: false, reason, code };
}
