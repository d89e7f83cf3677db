import { METAFIELD_KEYS, ORDER_TAGS } from '../domain/order-marks.js';
import type { OrderRecord } from '../records/order-records.js';
import type { StoredShipment } from '../sandbox/partner/index.js';
import type { FakeOrder } from '../sandbox/store/index.js';
import { outcomeLabel } from './format.js';

/** One line per order: where it ended up, on both sides. */
export function summaryLines(
  orders: FakeOrder[],
  recordOf: (orderId: string) => OrderRecord | null,
  shipments: StoredShipment[],
): string[] {
  const rows = [...orders]
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }))
    .map((order) => {
      const record = recordOf(order.id);
      const shipment = shipments.find((s) => s.reference === order.id);
      return [order.name, order.id, outcomeLabel(record), detail(order, record, shipment)];
    });
  const header = ['Order', 'Id', 'Outcome', 'Details'];
  const widths = [0, 1, 2].map((i) => Math.max(...[header, ...rows].map((r) => r[i]!.length)));
  const format = (row: string[]) =>
    `   ${row
      .slice(0, 3)
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')}  ${row[3]}`;
  return [format(header), ...rows.map(format)];
}

function detail(
  order: FakeOrder,
  record: OrderRecord | null,
  shipment: StoredShipment | undefined,
): string {
  if (!record) return '';
  if (record.state === 'skipped') return record.reason ?? '';
  if (record.state === 'failed') {
    // The first line is the headline; the field errors follow, one per line.
    const lines = (record.reason ?? '').split('\n');
    return (lines.length > 2 ? lines.slice(1, -1) : lines).join(' ');
  }
  const parts = [`${record.orderNumber}`];
  if (shipment) {
    const tracking = shipment.trackingNumber
      ? ` (${shipment.carrier} ${shipment.trackingNumber})`
      : '';
    parts.push(`at the provider now ${shipment.status}${tracking}`);
  }
  // The connector's own, where staff fulfilled part of the order too.
  const live = order.fulfillments.filter((f) => f.status === 'SUCCESS');
  const fulfillment = live.find((f) => f.createdBy === 'app') ?? live[0];
  if (fulfillment) {
    const shown = fulfillment.displayStatus === 'DELIVERED' ? 'delivered' : 'fulfilled';
    parts.push(`in Shopify ${shown} (${fulfillment.trackingInfo[0]?.company ?? 'no tracking'})`);
  } else if (order.metafields.some((m) => m.key === METAFIELD_KEYS.status)) {
    const status = order.metafields.find((m) => m.key === METAFIELD_KEYS.status)?.value;
    parts.push(`in Shopify ${status}`);
  }
  if (order.tags.includes(ORDER_TAGS.cancelAtProvider)) {
    parts.push(`cancelled in Shopify: tagged ${ORDER_TAGS.cancelAtProvider}`);
  }
  return parts.join(', ');
}

/** How many Shopify orders carry a fulfillment, and how many of those show it delivered. */
export function shopifyProgress(orders: FakeOrder[]): { fulfilled: number; delivered: number } {
  const live = orders.map((order) => order.fulfillments.filter((f) => f.status === 'SUCCESS'));
  return {
    fulfilled: live.filter((fulfillments) => fulfillments.length > 0).length,
    delivered: live.filter((fulfillments) =>
      fulfillments.some((f) => f.displayStatus === 'DELIVERED'),
    ).length,
  };
}
