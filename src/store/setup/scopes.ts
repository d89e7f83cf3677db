/**
 * The access scopes the connector needs (Admin API 2026-10), each with what needs it. Checked
 * against the real schema's `requiredAccess` for every document we send
 * (test/store/required-scopes.test.ts) and Shopify's docs. A write scope also grants reading
 * the same resource (Shopify's access-scopes guide), so the read scopes below are covered by
 * their write scope when the app has it; they are listed because reading is what needs them.
 *
 * Not needed, and so not asked for: read_all_orders (only to read orders older than 60 days,
 * e.g. a `connector backfill` further back) and read_third_party_fulfillment_orders (to see the
 * fulfillment orders of fulfillment services, which the connector leaves alone anyway).
 */
export const REQUIRED_SCOPES = [
  // Reading orders (order, orders, fulfillments, fulfillment events); the ORDERS_CREATE,
  // ORDERS_PAID, ORDERS_UPDATED and ORDERS_CANCELLED webhook topics need it to be subscribed to.
  'read_orders',
  // orderUpdate (the note line and the metafields), tagsAdd/tagsRemove and metafieldsDelete on an
  // order (they need what mutating the order needs), metafieldDefinitionCreate for ownerType
  // ORDER (it needs access to the owner's resource type).
  'write_orders',
  // Line item weights and product types in an order: Product, ProductVariant and InventoryItem
  // (read_inventory would also do for InventoryItem alone).
  'read_products',
  // fulfillmentCreate and fulfillmentTrackingInfoUpdate, and since 2026-04
  // fulfillmentOrderReportProgress, on fulfillment orders at the merchant's own locations.
  'write_merchant_managed_fulfillment_orders',
  // Reading those fulfillment orders and their lines (Order.fulfillmentOrders lists only the
  // fulfillment orders the app's scopes cover).
  'read_merchant_managed_fulfillment_orders',
  // fulfillmentEventCreate (IN_TRANSIT, DELIVERED, …).
  'write_fulfillments',
  // The Location of a fulfillment order and of a fulfillment (id, isFulfillmentService).
  'read_locations',
] as const;

// No scope of their own: shop, currentAppInstallation.accessScopes, webhookSubscriptions and
// webhookSubscriptionCreate/Update (each topic needs its resource's read scope, above).

export type RequiredScope = (typeof REQUIRED_SCOPES)[number];

/** What each required scope is for, in an admin's words (`connector setup` names the missing). */
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
