/**
 * The name of an order's job, as Bull Board lists it: the order's name as staff and customers know
 * it when the enqueuer has it (`#1003 create shipment`), its id otherwise (`order 5550003 …`).
 * Only for people: processors never read it, and job ids stay as they are.
 */
export function orderJobName(what: string, orderId: string, orderName?: string): string {
  return `${orderName ? cleanName(orderName) : `order ${orderId}`} ${what}`;
}

/** An order name as Shopify shows it (`#1003`, `SO-1003`): one short token, nothing else. */
function cleanName(name: string): string {
  return name.trim().replace(/\s+/g, ' ').slice(0, 40);
}
