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

  // Whole types while they fit; a first one longer than the limit is cut.
  let text = '';
  for (const type of types.values()) {
    const next = text ? `${text}, ${type}` : type;
    if (next.length > CONTENT_DESCRIPTION_MAX_LENGTH) break;
    text = next;
  }
  return text || [...types.values()][0]!.slice(0, CONTENT_DESCRIPTION_MAX_LENGTH).trim();
}
