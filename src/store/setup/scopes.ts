/**
 * Checked against the schema's `requiredAccess` (test/store/required-scopes.test.ts). A write scope
 * grants reading too; read scopes are listed because reading is what needs them. Not asked for:
 * read_all_orders (orders older than 60 days) and read_third_party_fulfillment_orders (fulfillment
 * services' orders, which the connector leaves alone).
 */
export const REQUIRED_SCOPES = [
  // Also needed to subscribe to the orders/create, paid, updated and cancelled webhooks.
  'read_orders',
  // orderUpdate, tagsAdd/Remove, metafieldsDelete, metafieldDefinitionCreate (ownerType ORDER).
  'write_orders',
  // Line item weights and product types (Product, ProductVariant, InventoryItem).
  'read_products',
  // fulfillmentCreate, fulfillmentTrackingInfoUpdate, fulfillmentOrderReportProgress (2026-04+).
  'write_merchant_managed_fulfillment_orders',
  // Order.fulfillmentOrders lists only the fulfillment orders the app's scopes cover.
  'read_merchant_managed_fulfillment_orders',
  // fulfillmentEventCreate.
  'write_fulfillments',
  'read_locations',
] as const;

// No scope of their own: shop, accessScopes and webhook subscriptions.

export type RequiredScope = (typeof REQUIRED_SCOPES)[number];

/** In an admin's words, for `connector setup` to name the missing ones. */
export const SCOPE_PURPOSES: Readonly<Record<RequiredScope, string>> = {
  read_orders: 'reading orders, and the order webhooks (orders/create, paid, updated, cancelled)',
  write_orders:
    "writing the shipment's tags, notes and metafields on orders, and their metafield definitions",
  read_products: "item weights and product types of an order's lines",
  write_merchant_managed_fulfillment_orders:
    'fulfilling orders with the tracking number, and reporting them in progress',
  read_merchant_managed_fulfillment_orders: 'reading the fulfillment orders at your own locations',
  write_fulfillments: 'marking fulfillments in transit and delivered',
  read_locations: 'where each fulfillment order ships from',
};

/** The required scopes `granted` lacks; a write scope counts for its read scope. */
export function missingScopes(
  granted: readonly string[],
  required: readonly string[] = REQUIRED_SCOPES,
): string[] {
  const have = new Set(granted);
  return required.filter(
    (scope) => !have.has(scope) && !have.has(scope.replace(/^read_/, 'write_')),
  );
}
