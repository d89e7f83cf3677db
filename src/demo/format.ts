import type { OrderRecord } from '../records/order-records.js';

/** "   #1008  registered  text", with continuation lines under the text. */
export function orderLine(name: string, label: string, text: string): string {
  const head = `   ${name.padEnd(6)} ${label.padEnd(11)} `;
  const pad = ' '.repeat(head.length);
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? head : pad) + line)
    .join('\n');
}

/** "refused" for orders that cannot ship as they are; "failed" for giving up on errors. */
export function outcomeLabel(record: OrderRecord | null): string {
  if (!record) return 'not seen';
  if (record.state !== 'failed') return record.state;
  return /cannot be shipped|refused/.test(record.reason ?? '') ? 'refused' : 'failed';
}
