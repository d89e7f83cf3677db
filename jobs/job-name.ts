/** Only for people on the board: processors never read it, and job ids stay as they are. */
export function orderJobName(what: string, orderId: string, orderName?: string): string {
  return `${orderName ? cleanName(orderName) : `order ${orderId}`} ${what}`;
}

/** One short token (`#1003`, `SO-1003`), nothing else. */
function cleanName(name: string): string {
  return name.trim().replace(/\s+/g, ' ').slice(0, 40);
}
