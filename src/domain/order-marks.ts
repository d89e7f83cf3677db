import type { StoreOrderHeader } from './order.js';

/**
 * What the connector writes on a Shopify order, in one place so staff, docs and filters agree.
 * Staff can filter orders by these tags in the Shopify admin.
 */
export const ORDER_TAGS = {
  /** The provider accepted the shipment; the order number is in the metafield. */
  registered: 'shipment-registered',
  /** The order cannot be shipped as it is; the reason is in the error metafield. */
  error: 'shipment-error',
  /** Cancelled in Shopify after its shipment was registered: ask the provider to cancel. */
  cancelAtProvider: 'shipment-cancel-at-provider',
  /**
   * Edited after its shipment was registered (receiver, lines or weights): the note says what
   * changed; tell the provider, the API cannot update a shipment. Staff remove it once done.
   */
  orderEdited: 'shipment-order-edited',
} as const;

export const METAFIELD_NAMESPACE = 'partner_shipment';

export const METAFIELD_KEYS = {
  orderNumber: 'order_number',
  status: 'status',
  error: 'error',
} as const;

/**
 * Whether the order carries the marks of a registration: the order number metafield or the
 * registered tag. They live in Shopify, so they survive whatever Redis loses or expires; the
 * provider (asked by reference) decides whether a shipment exists in this environment.
 */
export function carriesRegistrationMarks(
  order: Pick<StoreOrderHeader, 'tags' | 'shipmentOrderNumber'>,
): boolean {
  return order.shipmentOrderNumber !== null || hasTag(order, ORDER_TAGS.registered);
}

/** Shopify keeps a tag's case as typed; staff may retype one. */
export function hasTag(order: Pick<StoreOrderHeader, 'tags'>, tag: string): boolean {
  return order.tags.some((t) => t.toLowerCase() === tag);
}
