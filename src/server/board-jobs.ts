const ORDER_ID = /^\d{1,20}$/;

/** The status sync's writes name the order as the shipment's reference, which is its id. */
export function orderIdOfJob(job: { data?: unknown } | null | undefined): string | null {
  const data = job?.data as { orderId?: unknown; reference?: unknown } | undefined;
  const id = data?.orderId ?? data?.reference;
  return typeof id === 'string' && ORDER_ID.test(id) ? id : null;
}

/** The myshopify domain leads to any store's admin (Shopify forwards it to admin.shopify.com). */
export function shopifyOrderUrl(shop: string, orderId: string): string {
  return `https://${shop}/admin/orders/${orderId}`;
}
