import { METAFIELD_NAMESPACE, ORDER_TAGS } from '../domain/order-marks.js';
import type { FakeOrder } from '../sandbox/store/index.js';

/** What the connector may have written on a Shopify order, and nothing else of it. */
export interface Marks {
  tags: string[];
  /** partner_shipment metafields by key. */
  metafields: Record<string, string>;
  note: string | null;
  fulfillments: string[];
}

const CONNECTOR_TAGS = new Set<string>(Object.values(ORDER_TAGS));

export const NO_MARKS: Marks = { tags: [], metafields: {}, note: null, fulfillments: [] };

export function marksOf(order: FakeOrder): Marks {
  return {
    tags: order.tags.filter((tag) => CONNECTOR_TAGS.has(tag)).sort(),
    metafields: Object.fromEntries(
      order.metafields
        .filter((m) => m.namespace === METAFIELD_NAMESPACE)
        .map((m) => [m.key, m.value])
        .sort(([a = ''], [b = '']) => a.localeCompare(b)),
    ),
    note: order.note,
    fulfillments: order.fulfillments.map((f) => {
      const tracking = f.trackingInfo
        .map((t) => [t.company, t.number].filter(Boolean).join(' '))
        .join(', ');
      const shown = f.status === 'SUCCESS' ? f.displayStatus : f.status;
      return `fulfillment ${shown.toLowerCase().replaceAll('_', ' ')}${tracking ? `, tracking ${tracking}` : ''}`;
    }),
  };
}

/**
 * The changes from `before` to `after`, one line each, as staff would see them in the Shopify
 * admin. `reason` is the connector's recorded reason, so a long error metafield that merely
 * repeats it is not printed twice.
 */
export function describeChanges(before: Marks, after: Marks, reason?: string): string[] {
  const lines: string[] = [];
  for (const tag of after.tags) if (!before.tags.includes(tag)) lines.push(`+ tag ${tag}`);
  for (const tag of before.tags) if (!after.tags.includes(tag)) lines.push(`- tag ${tag}`);
  for (const [key, value] of Object.entries(after.metafields)) {
    if (before.metafields[key] === value) continue;
    const shown = value === reason ? '(the reason above)' : shorten(value);
    lines.push(`metafield ${METAFIELD_NAMESPACE}.${key} = ${shown}`);
  }
  for (const key of Object.keys(before.metafields)) {
    if (!(key in after.metafields)) lines.push(`- metafield ${METAFIELD_NAMESPACE}.${key}`);
  }
  if (after.note !== before.note) {
    const added =
      before.note && after.note?.startsWith(before.note)
        ? after.note.slice(before.note.length)
        : (after.note ?? '');
    lines.push(`note + "${shorten(added.trim())}"`);
  }
  for (const f of after.fulfillments) if (!before.fulfillments.includes(f)) lines.push(`+ ${f}`);
  return lines;
}

function shorten(text: string): string {
  const [first = '', ...rest] = text.split('\n');
  return rest.length > 0 ? `${first} …` : first;
}
