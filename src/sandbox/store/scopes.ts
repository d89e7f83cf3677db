import { GraphQLError } from 'graphql';
import type { FakeLocation } from './model.js';

/**
 * Access scopes, as Shopify checks them: a write scope grants its read scope too; a field the
 * app may not use is answered null with an ACCESS_DENIED error naming the scopes that would do.
 */

/** Any one of these grants the root field (Shopify's documented requirements). */
export const REQUIRED_SCOPES: Record<string, string[]> = {
  order: ['read_orders'],
  fulfillment: ['read_orders'],
  orders: ['read_orders'],
  locations: ['read_locations'],
  metafieldsSet: ['write_orders'],
  metafieldsDelete: ['write_orders'],
  tagsAdd: ['write_orders'],
  tagsRemove: ['write_orders'],
  orderUpdate: ['write_orders'],
  fulfillmentCreate: [
    'write_assigned_fulfillment_orders',
    'write_merchant_managed_fulfillment_orders',
    'write_third_party_fulfillment_orders',
  ],
  fulfillmentTrackingInfoUpdate: [
    'write_assigned_fulfillment_orders',
    'write_merchant_managed_fulfillment_orders',
    'write_third_party_fulfillment_orders',
  ],
  fulfillmentOrderReportProgress: [
    'write_merchant_managed_fulfillment_orders',
    'write_assigned_fulfillment_orders',
  ],
  fulfillmentEventCreate: ['write_fulfillments'],
};

export const hasScope = (granted: readonly string[], scope: string) =>
  granted.includes(scope) ||
  (scope.startsWith('read_') && granted.includes(`write_${scope.slice('read_'.length)}`));

/** Throws Shopify's ACCESS_DENIED error unless one of the field's scopes is granted. */
export function requireScope(granted: readonly string[], field: string): void {
  const anyOf = REQUIRED_SCOPES[field];
  if (!anyOf || anyOf.some((scope) => hasScope(granted, scope))) return;
  const named = anyOf.map((scope) => `\`${scope}\` access scope`);
  const required =
    named.length > 1 ? `${named.slice(0, -1).join(', ')} or ${named.at(-1)}` : named[0]!;
  throw new GraphQLError(`Access denied for ${field} field. Required access: ${required}.`, {
    extensions: {
      code: 'ACCESS_DENIED',
      documentation: 'https://shopify.dev/api/usage/access-scopes',
      requiredAccess: `${required}.`,
    },
  });
}

/**
 * Which fulfillment orders the app sees: those at the merchant's locations with
 * read_merchant_managed_fulfillment_orders, those at a fulfillment service's location with
 * read_third_party_fulfillment_orders. Shopify leaves the others out of Order.fulfillmentOrders.
 */
export function seesFulfillmentOrdersAt(granted: readonly string[], location: FakeLocation) {
  return location.isFulfillmentService
    ? hasScope(granted, 'read_third_party_fulfillment_orders')
    : hasScope(granted, 'read_merchant_managed_fulfillment_orders');
}
