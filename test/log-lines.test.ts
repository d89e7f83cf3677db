import { describe, expect, it } from 'vitest';
import { FIXTURE_ORDERS } from '../src/sandbox/store/fixtures/index.js';
import { startLocalService, until } from './helpers/local-service.js';

/** Keys that occur twice in one JSON object of `line`, at any depth (JSON.parse hides them). */
function duplicateKeys(line: string): string[] {
  const found: string[] = [];
  const stack: { keys: Set<string> | null; expectKey: boolean }[] = [];
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') {
      let end = i + 1;
      while (line[end] !== '"') end += line[end] === '\\' ? 2 : 1;
      const top = stack.at(-1);
      if (top?.keys && top.expectKey) {
        const key = line.slice(i + 1, end);
        if (top.keys.has(key)) found.push(key);
        top.keys.add(key);
        top.expectKey = false;
      }
      i = end;
    } else if (c === '{') stack.push({ keys: new Set(), expectKey: true });
    else if (c === '[') stack.push({ keys: null, expectKey: false });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') {
      const top = stack.at(-1);
      if (top?.keys) top.expectKey = true;
    }
  }
  return found;
}

describe('log lines', () => {
  it('finds a repeated key', () => {
    expect(duplicateKeys('{"a":1,"b":{"a":2,"c":"a,\\"a"},"a":3}')).toEqual(['a']);
    expect(duplicateKeys('{"a":[{"x":1},{"x":2}]}')).toEqual([]);
  });

  it('repeat no key in a run that registers, refuses and flags orders (debug level)', async () => {
    const s = await startLocalService({ logLevel: 'debug' });
    const webhookUrl = `${s.service.url}/webhooks/shopify`;
    const { id: _id, ...refused } = FIXTURE_ORDERS.missingPostalCodeOdense as { id?: string };
    const registered = (await s.store.createOrder({}, { webhookUrl })).order.id;
    const refusedId = (await s.store.createOrder(refused, { webhookUrl })).order.id;
    const tagged = (id: string, tag: string) => (s.store.order(id)?.tags ?? []).includes(tag);
    await until(
      async () => tagged(registered, 'shipment-registered') && tagged(refusedId, 'shipment-error'),
      'the orders to be marked',
    );
    await s.store.updateOrder(registered, { cancel: true }, { webhookUrl });
    await until(async () => tagged(registered, 'shipment-cancel-at-provider'), 'the flag');

    const lines = s.lines().trim().split('\n');
    expect(lines.length).toBeGreaterThan(10);
    const repeated = lines
      .map((line) => ({ line, keys: duplicateKeys(line) }))
      .filter(({ keys }) => keys.length > 0);
    expect(repeated).toEqual([]);
  }, 60_000);
});
