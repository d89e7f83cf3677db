import { describe, expect, it } from 'vitest';
import { orderJobId } from '../../src/compose/parts.js';
import { fullConnectorEnv, runConnector } from '../helpers/connector-cli.js';
import {
  DEMO_EMAIL,
  FIXTURE,
  type ShipmentStack,
  shipmentStacks,
  waitForJob,
} from '../helpers/shipment-stack.js';
import { partnerCalls, runSync, settled } from '../helpers/status-sync.js';

const stackFor = shipmentStacks();

async function register(s: ShipmentStack, id: string) {
  await s.parts.enqueueOrder(id, 'orders/paid');
  await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');
  await settled(s);
}

/** The CLI with a token of its own, so its budget is this test's alone. */
function driftEnv(s: ShipmentStack) {
  return {
    ...fullConnectorEnv(s.prefix, { partner: s.sandbox.url, store: s.store.url }),
    PARTNER_API_TOKEN: s.sandbox.issueToken(DEMO_EMAIL, 'drift-test'),
  };
}

describe('connector drift', () => {
  it('reports each kind of drift with ids, from one list page at the provider', async () => {
    const s = await stackFor();
    const [paidNoShipment, shippedHeld, fulfilledByStaff, fine] = [
      '5561001',
      '5561002',
      '5561003',
      FIXTURE.paidCopenhagen,
    ];
    const placed = new Date(Date.now() - 3 * 3600_000).toISOString();
    for (const id of [paidNoShipment, shippedHeld, fulfilledByStaff]) {
      await s.store.createOrder(
        { id, createdAt: placed, updatedAt: placed },
        { sendWebhook: false },
      );
    }
    for (const id of [shippedHeld, fulfilledByStaff, fine]) await register(s, id);
    s.sandbox.seedShipments({ references: ['9999999901', 'legacy-ref-1'] });

    // Shipped at the provider while Shopify holds the order: the fulfilment fails.
    const held = s.store.order(shippedHeld)!.fulfillmentOrders[0]!;
    await s.store.holdFulfillmentOrder(held.id, { reason: 'OTHER', reasonNotes: 'checking stock' });
    s.sandbox.advance(shippedHeld, 'shipped', { carrier: 'Bring', trackingNumber: '70700000001' });
    // Fulfilled by staff while the provider has not shipped.
    await s.store.fulfil(fulfilledByStaff, {}, { sendWebhook: false });
    await runSync(s);
    await settled(s);

    const since = Date.now();
    const run = await runConnector(['drift', '--json', '--older-than-minutes', '0'], driftEnv(s));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);

    expect(report.paidWithoutShipment.orders.map((o: { orderId: string }) => o.orderId)).toEqual(
      expect.arrayContaining([paidNoShipment]),
    );
    expect(report.paidWithoutShipment.orders).not.toContainEqual(
      expect.objectContaining({ orderId: fine }),
    );
    expect(report.shipmentsWithoutOrder).toEqual({
      count: 2,
      references: ['9999999901', 'legacy-ref-1'],
    });
    expect(report.shippedNotFulfilled.orders).toEqual([
      expect.objectContaining({
        orderId: shippedHeld,
        stage: 'shipped',
        fulfilJob: expect.objectContaining({
          state: 'failed',
          failedReason: expect.stringContaining('on hold'),
        }),
      }),
    ]);
    expect(report.fulfilledNotShipped).toMatchObject({
      count: 1,
      orders: [{ orderId: fulfilledByStaff, providerStatus: 'pending' }],
      candidates: 2,
      checked: 2,
    });
    // One list page (per_page=200) at the provider, and the report says so.
    expect(partnerCalls(s, since)).toEqual({ list: 1, detail: 0, create: 0 });
    expect(report.requests.provider).toBe(1);
    // Ids and statuses only: no names, addresses, phones or emails.
    expect(run.stdout).not.toMatch(/@|Hansen|\+45/);

    const text = await runConnector(['drift', '--older-than-minutes', '0'], driftEnv(s));
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('✗ Shipments at the provider with no order in this store: 2');
    expect(text.stdout).toContain('✓ Waiting on Shopify for more than 7 days (still looked at): 0');
    expect(text.stdout).toContain(`    ${shippedHeld} (shipped): job fulfil-shipment/`);
    expect(text.stdout).toMatch(/Requests: 1 request to the provider \(list pages/);
  }, 90_000);

  it('leaves out what is younger than the threshold, and says so', async () => {
    const s = await stackFor({ workers: false, orders: [] });
    await s.store.createOrder({ id: '5562001' }, { sendWebhook: false });

    const fresh = await runConnector(['drift', '--json'], driftEnv(s));
    expect(fresh.stderr).toBe('');
    expect(JSON.parse(fresh.stdout).paidWithoutShipment).toMatchObject({
      count: 0,
      ordersRead: 1,
      youngerLeftOut: 1,
    });
    const words = await runConnector(['drift'], driftEnv(s));
    expect(words.stdout).not.toContain('No drift found');
    expect(words.stdout).toContain(
      'No drift older than 30 minutes. 1 paid order younger than that has no shipment yet',
    );
    expect(words.stdout).toMatch(/1 Shopify read\.$/m);

    const all = await runConnector(['drift', '--json', '--older-than-minutes', '0'], driftEnv(s));
    expect(JSON.parse(all.stdout).paidWithoutShipment.orders).toEqual([
      { orderId: '5562001', name: expect.any(String), state: 'not seen', job: null },
    ]);
  }, 60_000);

  it('reports a refused order at any age, in the words of connector status', async () => {
    const s = await stackFor({ orders: [] });
    await s.store.createOrder(
      { id: '5563001', shippingAddress: { zip: null } },
      { sendWebhook: false },
    );
    await s.parts.enqueueOrder('5563001', 'orders/paid');
    await waitForJob(s.queues.createShipment, orderJobId('5563001'), 'failed');

    const run = await runConnector(['drift'], driftEnv(s));
    expect(run.stdout).toMatch(/✗ Paid orders with no shipment: 1 /);
    expect(run.stdout).toMatch(
      / {4}5563001 \(#\d+\): refused, job create-shipment\/order-5563001: failed/,
    );
    const status = await runConnector(['status', '5563001'], driftEnv(s));
    expect(status.stdout).toContain('State: refused');
  }, 60_000);
});
