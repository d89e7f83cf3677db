/**
 * What each scope is for, in an admin's words, for `connector setup` to name the missing ones.
 * Checked against the schema's `requiredAccess` (test/store/required-scopes.test.ts). A write scope
 * grants reading too; read scopes are listed because reading is what needs them. Not asked for:
 * read_all_orders (orders older than 60 days) and read_third_party_fulfillment_orders (fulfillment
 * services' orders, which the connector leaves alone). Shop, accessScopes and webhook
 * subscriptions need no scope of their own.
 */
export const SCOPE_PURPOSES = {
  read_orders: 'reading orders, and the order webhooks (orders/create, paid, updated, cancelled)',
  // orderUpdate, tagsAdd/Remove, metafieldsDelete, metafieldDefinitionCreate (ownerType ORDER).
  write_orders:
    "writing the shipment's tags, notes and metafields on orders, and their metafield definitions",
  // Product, ProductVariant, InventoryItem.
  read_products: "item weights and product types of an order's lines",
  // fulfillmentCreate, fulfillmentTrackingInfoUpdate, fulfillmentOrderReportProgress (2026-04+).
  write_merchant_managed_fulfillment_orders:
    'fulfilling orders with the tracking number, and reporting them in progress',
  // Order.fulfillmentOrders lists only the fulfillment orders the app's scopes cover.
  read_merchant_managed_fulfillment_orders: 'reading the fulfillment orders at your own locations',
  // fulfillmentEventCreate.
  write_fulfillments: 'marking fulfillments in transit and delivered',
  read_locations: 'where each fulfillment order ships from',
} as const;

export type RequiredScope = keyof typeof SCOPE_PURPOSES;

export const REQUIRED_SCOPES = Object.keys(SCOPE_PURPOSES) as RequiredScope[];

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
