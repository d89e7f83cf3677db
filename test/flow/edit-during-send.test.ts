import { afterEach, describe, expect, it } from 'vitest';
import type { PartnerClient } from '../../src/partner/client.js';
import { createRequests, shipmentStacks, waitUntil } from '../helpers/shipment-stack.js';
import { serveWebhooks } from '../helpers/webhook-route.js';

const start = shipmentStacks();
const EDITED_TAG = 'shipment-order-edited';
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

describe('an order edited while its create request is out', () => {
  it('is judged when the run looks again, though its webhook came before the registration', {
    timeout: 60_000,
  }, async () => {
    const s = await start({ workers: false });
    const route = await serveWebhooks(s);
    closing.push(route.close);
    await s.storeClient.createWebhookSubscription('ORDERS_UPDATED', route.url);
    const id = '8700002';
    const real = s.partner;
    let edited = false;
    let webhookStatus: number | null | undefined;
    const partner: PartnerClient = Object.assign(Object.create(real) as PartnerClient, {
      async createShipment(...args: Parameters<PartnerClient['createShipment']>) {
        if (!edited) {
          edited = true;
          // Staff take a mug off; its orders/updated reaches the intake while the run is out.
          const { webhook } = await s.store.updateOrder(id, {
            lineQuantities: [{ title: 'Mug', quantity: 1 }],
          });
          webhookStatus = webhook?.status;
        }
        return real.createShipment(...args);
      },
    });
    s.startWorkers({ ports: { partner } });
    await s.store.createOrder(
      { id, lineItems: [{ title: 'Mug', quantity: 2 }, { title: 'Blanket' }] },
      { webhookUrl: route.url },
    );

    await waitUntil(() => webhookStatus !== undefined, { what: 'the edit to be made' });
    expect(webhookStatus).toBe(200);
    await waitUntil(() => s.store.order(id)?.tags.includes(EDITED_TAG), {
      what: 'the edit to be reported',
      timeoutMs: 30_000,
    });
    expect((await s.counters.read()).orders_edited_after_registration).toBe(1);
    expect(createRequests(s.sandbox)).toHaveLength(1);
  });
});
