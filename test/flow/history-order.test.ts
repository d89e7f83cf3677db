import { describe, expect, it } from 'vitest';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import { parsePartnerTimestamp } from '../../src/partner/time.js';
import { shipmentStacks, waitForJob } from '../helpers/shipment-stack.js';
import { providerClock, runSync, settled } from '../helpers/status-sync.js';

const start = shipmentStacks();

const DAY_MS = 24 * 3600_000;

/**
 * The contract lists a shipment's history oldest first only "in the reference behaviour". A
 * provider listing it newest first must not move the shipment's creation time to its latest
 * step: the status sync lists shipments created after the oldest one it follows, and would never
 * see this one again.
 */
describe('a provider that lists history newest first', () => {
  it('records the earliest entry as the creation of a shipment found by look-up, and the sync keeps seeing it', async () => {
    const time = providerClock();
    const s = await start({ sandbox: { clock: time.clock, historyOrder: 'newest-first' } });
    const orderId = '5560001';
    const placedAt = new Date(Date.now() - 2 * DAY_MS);
    await s.store.createOrder(
      { id: orderId, createdAt: placedAt.toISOString(), updatedAt: placedAt.toISOString() },
      { sendWebhook: false },
    );
    // The provider made the shipment a day ago (a create whose answer never came back) and has
    // moved it on since, so its newest history entry is from now.
    const createdAt = new Date(Date.now() - DAY_MS);
    s.sandbox.seedShipments({ references: [orderId], createdAt });
    time.tick();
    s.sandbox.advance(orderId, 'processing');
    // The create answer cannot be read: the connector looks the shipment up.
    s.sandbox.failNextWithMalformedBody('schema', { method: 'POST', pathEndsWith: '/shipments' });

    await s.parts.enqueueOrder(orderId, 'orders/paid');
    await waitForJob(s.queues.createShipment, orderJobId(orderId), 'completed');
    await settled(s);

    const record = await s.records.get(orderId);
    expect(parsePartnerTimestamp(record!.partnerCreatedAt!)?.getTime()).toBe(
      Math.floor(createdAt.getTime() / 1000) * 1000,
    );
    const tracked = await s.context.tracking.get(orderId);
    expect(tracked!.createdAtMs).toBeLessThanOrEqual(createdAt.getTime());

    // Listed from before its creation on, the sync sees it has moved on.
    const summary = await runSync(s);
    expect(summary.changed).toBe(1);
    await settled(s);
    expect((await s.context.tracking.get(orderId))?.status).toBe('processing');
  });
});

describe('a shipment the connector created', () => {
  it("is followed from the created_at of the provider's answer, however long before the order was placed", async () => {
    const s = await start({ sandbox: { clock: providerClock().clock } });
    const orderId = '5560002';
    const placedAt = new Date(Date.now() - 2 * DAY_MS).toISOString();
    await s.store.createOrder(
      { id: orderId, createdAt: placedAt, updatedAt: placedAt },
      { sendWebhook: false },
    );

    await s.parts.enqueueOrder(orderId, 'orders/paid');
    await waitForJob(s.queues.createShipment, orderJobId(orderId), 'completed');

    // The sync's window then reaches back to the shipment's creation, not two days to the order's.
    const record = await s.records.get(orderId);
    const createdAtMs = parsePartnerTimestamp(record!.partnerCreatedAt!)!.getTime();
    expect(createdAtMs).toBeGreaterThan(Date.parse(placedAt) + DAY_MS);
    expect((await s.context.tracking.get(orderId))?.createdAtMs).toBe(createdAtMs);
  });
});
