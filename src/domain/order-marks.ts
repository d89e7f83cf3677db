import type { StoreOrder, StoreOrderHeader } from './order.js';

/** What the connector writes on a Shopify order, in one place so staff, docs and filters agree. */
export const ORDER_TAGS = {
  /** The provider accepted the shipment; the order number is in the metafield. */
  registered: 'shipment-registered',
  /** The order cannot be shipped as it is; the reason is in the error metafield. */
  error: 'shipment-error',
  /** Cancelled in Shopify after its shipment was registered: ask the provider to cancel. */
  cancelAtProvider: 'shipment-cancel-at-provider',
  /** Edited after registration (see note): the API cannot update a shipment. Staff remove it. */
  orderEdited: 'shipment-order-edited',
  /** The provider cancelled the shipment; the Shopify order itself is left as it is. */
  cancelledAtProvider: 'shipment-cancelled-by-provider',
  /** Shipped, but not fulfillable in Shopify as it stands (the note says why). Staff remove it. */
  notFulfilled: 'shipment-not-fulfilled',
} as const;

export const METAFIELD_NAMESPACE = 'partner_shipment';

export const METAFIELD_KEYS = {
  orderNumber: 'order_number',
  status: 'status',
  error: 'error',
  /** The provider's words for the status, e.g. "Handed to carrier". */
  statusLabel: 'status_label',
  /** When the provider last changed the shipment (its updated_at). */
  statusUpdatedAt: 'status_updated_at',
  carrier: 'carrier',
  trackingNumber: 'tracking_number',
} as const;

/** Labels for the documented statuses, until the provider has given its own. */
export const STATUS_LABELS: Readonly<Record<string, string>> = {
  pending: 'Registered',
  processing: 'Being prepared',
  shipped: 'Handed to carrier',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

/** In Shopify, so they survive Redis; the provider (by reference) says if a shipment exists. */
export function carriesRegistrationMarks(
  order: Pick<StoreOrderHeader, 'tags' | 'shipmentOrderNumber'>,
): boolean {
  return order.shipmentOrderNumber !== null || hasTag(order, ORDER_TAGS.registered);
}

/** As last seen. No personal data, so it rides in the mark job, which writes only what differs. */
export interface OrderMarksSeen {
  tags: string[];
  orderNumber: string | null;
  error: boolean;
}

export function marksSeenOn(
  order: Pick<StoreOrder, 'tags' | 'shipmentOrderNumber' | 'shipmentError'>,
): OrderMarksSeen {
  return {
    tags: Object.values(ORDER_TAGS).filter((tag) => hasTag(order, tag)),
    orderNumber: order.shipmentOrderNumber,
    error: order.shipmentError,
  };
}

/** Shopify keeps a tag's case as typed; staff may retype one. */
export function hasTag(order: Pick<StoreOrderHeader, 'tags'>, tag: string): boolean {
  return order.tags.some((t) => t.toLowerCase() === tag);
}

/** Created by `connector setup` so the values show, explained, in the order's Metafields card. */
export const METAFIELD_DEFINITIONS = [
  {
    key: METAFIELD_KEYS.orderNumber,
    name: 'Shipment order number',
    description:
      "The logistics provider's order number for this order's shipment. Quote it when you contact the provider.",
    type: 'single_line_text_field',
  },
  {
    key: METAFIELD_KEYS.status,
    name: 'Shipment status',
    description:
      'Where the shipment stands at the provider, written only when the order cannot show it itself (an unusual provider status, not fulfilled in Shopify, …), then kept current. error: no shipment, see Shipment error.',
    type: 'single_line_text_field',
  },
  {
    key: METAFIELD_KEYS.statusLabel,
    name: 'Shipment status (provider’s words)',
    description:
      "The provider's own description of the shipment status, e.g. Handed to carrier; written with Shipment status.",
    type: 'single_line_text_field',
  },
  {
    key: METAFIELD_KEYS.statusUpdatedAt,
    name: 'Shipment status changed at',
    description:
      'When the provider last changed the shipment status; written with Shipment status.',
    type: 'single_line_text_field',
  },
  {
    key: METAFIELD_KEYS.carrier,
    name: 'Shipment carrier',
    description:
      "The carrier the provider handed the parcel to, written with Shipment status; otherwise on the order's fulfillment.",
    type: 'single_line_text_field',
  },
  {
    key: METAFIELD_KEYS.trackingNumber,
    name: 'Shipment tracking number',
    description:
      "The carrier's tracking number of the parcel, written with Shipment status; otherwise on the order's fulfillment.",
    type: 'single_line_text_field',
  },
  {
    key: METAFIELD_KEYS.error,
    name: 'Shipment error',
    description:
      'Why no shipment could be created for this order, and what to fix. Cleared once the shipment is registered.',
    type: 'multi_line_text_field',
  },
] as const;
