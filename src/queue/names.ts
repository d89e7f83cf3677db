/** Queue names, in flow order. Every queue shares the key prefix from QUEUE_PREFIX. */
export const QUEUES = {
  /** Store order → POST /shipments. */
  createShipment: 'create-shipment',
  /** Writes the registration (or failure) back to the Shopify order. */
  updateStore: 'update-store',
  /** Scheduled: pages orders updated since the watermark and enqueues missed ones. */
  reconcileOrders: 'reconcile-orders',
  /** Scheduled: pages GET /shipments and syncs statuses and tracking to the store. */
  syncStatus: 'sync-status',
} as const;

/** Job ids must not contain ':' nor be all digits (BullMQ). One job per order and purpose. */
export function orderJobId(orderId: string): string {
  return `order-${orderId}`;
}
