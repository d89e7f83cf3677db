import type { StoreOrder, StoreOrderSummary } from '../../domain/order.js';

/** Reading orders: what registering a shipment and the reconciliation poll need. */
export interface OrderReader {
  /** The order, or null when the store has none with that id (numeric or gid). */
  getOrder(id: string): Promise<StoreOrder | null>;
  /**
   * One page (100) of orders updated at or after `since`, oldest update first: summaries without
   * line items or address, so the page stays cheap; read an order whole with getOrder.
   */
  listOrdersUpdatedSince(
    since: Date,
    after?: string,
  ): Promise<{ orders: StoreOrderSummary[]; nextCursor: string | null }>;
  /**
   * The order named `name` (`#1003`; `1003` is read as `#1003`): its numeric id and name, or null
   * when the store has no order of that name.
   */
  findOrderByName(name: string): Promise<{ id: string; name: string } | null>;
  /**
   * Which of these numeric ids are orders of the store, with when each was created (ISO), in as
   * few requests as Shopify allows; ids that are not orders are absent from the answer.
   */
  findOrders(ids: readonly string[]): Promise<Map<string, { createdAt: string }>>;
}
