import { orderGid, parseOrderId } from '../../domain/order.js';
import { StoreNotFoundError } from '../errors.js';

/** The order gid for a numeric id or gid; anything else names no order, so nothing is sent. */
export function orderGidOf(id: string, operation: string): string {
  const numeric = parseOrderId(id);
  if (numeric === null) {
    throw new StoreNotFoundError(`"${id}" is not a Shopify order id`, { operation });
  }
  return orderGid(numeric);
}

export function orderNotFound(orderId: string, operation: string): StoreNotFoundError {
  return new StoreNotFoundError(`Order ${parseOrderId(orderId)} was not found in the store`, {
    operation,
  });
}
