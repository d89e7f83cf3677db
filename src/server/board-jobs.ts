/** What the board shows of the order behind a job. */

const ORDER_ID = /^\d{1,20}$/;

/**
 * The order a job is about: every order job's payload names it, as `orderId` or (the status sync's
 * writes) as the shipment's reference, which is the order id. Null for schedules and the like.
 */
export function orderIdOfJob(job: { data?: unknown } | null | undefined): string | null {
  const data = job?.data as { orderId?: unknown; reference?: unknown } | undefined;
  const id = data?.orderId ?? data?.reference;
  return typeof id === 'string' && ORDER_ID.test(id) ? id : null;
}

/**
 * The order's page in the Shopify admin. The store's myshopify domain leads there for any store
 * (Shopify forwards it to admin.shopify.com/store/<handle>).
 */
export function shopifyOrderUrl(shop: string, orderId: string): string {
  return `https://${shop}/admin/orders/${orderId}`;
}
