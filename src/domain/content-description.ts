import type { StoreLineItem } from './order.js';
import type { OrderType } from './shipment-contract.js';
import { clean } from './text.js';

/** Customs paperwork wants a short plain description, not a catalogue. */
export const CONTENT_DESCRIPTION_MAX_LENGTH = 200;

const FALLBACK: Record<OrderType, string> = { package: 'Merchandise', document: 'Documents' };

/** Configured text, else distinct product types ("Shoes, T-shirts"), else a generic word. */
export function describeContents(
  shippedItems: readonly StoreLineItem[],
  orderType: OrderType,
  configured: string | undefined,
): string {
  const fixed = clean(configured);
  if (fixed) return fixed;

  const types = new Map<string, string>();
  for (const item of shippedItems) {
    const type = clean(item.productType);
    if (type && !types.has(type.toLowerCase())) types.set(type.toLowerCase(), type);
  }
  if (types.size === 0) return FALLBACK[orderType];
  return joinWithinLimit([...types.values()], CONTENT_DESCRIPTION_MAX_LENGTH);
}

/** Joins whole entries while they fit; a lone entry longer than the limit is cut. */
function joinWithinLimit(parts: readonly string[], maxLength: number): string {
  let text = '';
  for (const part of parts) {
    const next = text ? `${text}, ${part}` : part;
    if (next.length > maxLength) break;
    text = next;
  }
  return text || (parts[0] ?? '').slice(0, maxLength).trim();
}
