import type { FakeOrder } from '../sandbox/store/index.js';

const KG_PER_UNIT: Record<string, number> = {
  GRAMS: 0.001,
  KILOGRAMS: 1,
  OUNCES: 0.028_349_5,
  POUNDS: 0.453_592,
};

/** "paid · 1 × Oak garden bench (45 kg) → Aalborg 9000", the facts the connector acts on. */
export function describeOrder(order: FakeOrder): string {
  const flags = [
    order.test ? 'test order' : undefined,
    order.cancelledAt ? 'cancelled' : undefined,
    order.financialStatus.toLowerCase(),
  ].filter(Boolean);
  const shipped = order.lineItems.filter((item) => item.requiresShipping);
  const items = order.lineItems.map((item) => `${item.quantity} × ${item.title}`).join(', ');
  const kg = shipped.reduce(
    (sum, item) =>
      sum +
      item.quantity * (item.weight ? item.weight.value * (KG_PER_UNIT[item.weight.unit] ?? 0) : 0),
    0,
  );
  const address = order.shippingAddress;
  const destination =
    shipped.length === 0
      ? 'nothing to ship'
      : `${formatKg(kg)} → ${address?.city ?? '(no city)'} ${address?.zip ?? '(no postal code)'}`;
  return `${flags.join(', ')} · ${items} · ${destination}`;
}

function formatKg(kg: number): string {
  return `${Number(kg.toFixed(2))} kg`;
}
