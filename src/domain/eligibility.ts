import type { Config } from '../../config/index.js';
import type { StoreOrder } from './order.js';
import { isShipped } from './packages.js';
import { hasAnyTag, normaliseTag } from './text.js';

export type EligibilityRules = Config['eligibility'];

export type SkipCode =
  | 'cancelled'
  | 'test'
  | 'fulfilled'
  | 'not_paid'
  | 'no_shipping'
  | 'tag_excluded'
  | 'tag_not_included';

export type Eligibility = { eligible: true } | { eligible: false; reason: string; code: SkipCode };

/**
 * Whether an order should become a shipment: the one place every rule is applied, so webhook
 * intake and the reconciliation poll can never disagree. Reasons are safe to show an admin.
 */
export function checkEligibility(order: StoreOrder, rules: EligibilityRules): Eligibility {
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

  if (!order.lineItems.some(isShipped)) {
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
