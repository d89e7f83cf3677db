/**
 * Only for people on the board: processors never read it, and job ids stay as they are. A name is
 * one short token (`#1003`, `SO-1003`), nothing else.
 */
export function orderJobName(what: string, orderId: string, orderName?: string): string {
  const name = orderName?.trim().replace(/\s+/g, ' ').slice(0, 40);
  return `${orderName ? name : `order ${orderId}`} ${what}`;
}
