import type { StoreOrder, StoreOrderSummary } from '../../domain/order.js';

/** Reading orders: what registering a shipment and the reconciliation poll need. */
export interface OrderReader {
  /** The order, or null when the store has none with that id (numeric or gid). */
  getOrder(id: string): Promise<StoreOrder | null>;
  /** Oldest update first; summaries without line items or address, so the page stays cheap. */
  listOrdersUpdatedSince(
    since: Date,
    after?: string,
  ): Promise<{ orders: StoreOrderSummary[]; nextCursor: string | null }>;
  /** `1003` is read as `#1003`; returns the numeric id, or null when no order has that name. */
  findOrderByName(name: string): Promise<{ id: string; name: string } | null>;
  /** By numeric id, createdAt in ISO; ids that are not orders are absent. */
  findOrders(ids: readonly string[]): Promise<Map<string, { createdAt: string }>>;
}
