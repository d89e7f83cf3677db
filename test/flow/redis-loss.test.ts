import { describe, expect, it } from 'vitest';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import { dropKeys } from '../helpers/redis.js';
import {
  createRequests,
  FIXTURE,
  shipmentStacks,
  shipmentsWithReference,
  waitForJob,
} from '../helpers/shipment-stack.js';

const start = shipmentStacks();

const CANCEL_TAG = 'shipment-cancel-at-provider';

describe('Redis lost the record of a registered order', () => {
  it('still flags the order when it is cancelled: the marks on the order send the worker to the provider', async () => {
    const s = await start();
    const id = FIXTURE.paidCopenhagen;
    await s.parts.enqueueOrder(id, 'orders/paid');
    await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');
    await waitForJob(s.queues.markOrder, `registered-${id}`, 'completed');
    const [made] = s.sandbox.shipments();
    expect(s.store.order(id)?.tags).toContain('shipment-registered');

    // Redis restarts without persistence: every record and job is gone; Shopify keeps the marks.
    await s.stopWorkers();
    await dropKeys(s.redis, s.prefix);
    s.startWorkers();
    expect(await s.records.get(id)).toBeNull();

    await s.store.updateOrder(id, { cancel: true });
    await s.parts.acceptOrderEvent({ orderId: id, source: 'orders/cancelled', cancelled: true });
    const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');

    expect(job.returnvalue).toEqual({
      outcome: 'cancelled_after_registration',
      orderNumber: made?.orderNumber,
    });
    await waitForJob(s.queues.markOrder, `cancelled-after-registration-${id}`, 'completed');
    expect(s.store.order(id)?.tags).toContain(CANCEL_TAG);
    expect(await s.records.get(id)).toMatchObject({
      state: 'registered',
      orderNumber: made?.orderNumber,
      cancelledAfterRegistrationAt: expect.any(String),
    });
    // One create, then one look-up by reference; never a second shipment.
    expect(createRequests(s.sandbox)).toHaveLength(1);
    expect(s.sandbox.requests.filter((r) => r.method === 'GET').map((r) => r.status)).toEqual([
      200,
    ]);
  });

  it('skips a cancelled order whose marks the provider does not confirm (another environment made them)', async () => {
    const s = await start({
      orders: [
        {
          id: '5580001',
          cancelledAt: '2026-11-20T15:30:00Z',
          financialStatus: 'VOIDED',
          tags: ['shipment-registered'],
          metafields: [{ namespace: 'partner_shipment', key: 'order_number', value: 'SBX-1' }],
        },
      ],
    });

    await s.parts.acceptOrderEvent({
      orderId: '5580001',
      source: 'orders/cancelled',
      cancelled: true,
    });
    const job = await waitForJob(s.queues.createShipment, orderJobId('5580001'), 'completed');

    expect(job.returnvalue).toMatchObject({ outcome: 'skipped', code: 'cancelled' });
    expect(s.sandbox.requests.map((r) => `${r.method} ${r.status}`)).toEqual(['GET 404']);
    expect(s.store.order('5580001')?.tags).not.toContain(CANCEL_TAG);
  });
});

describe('the record of a registered order expired (RECORD_RETENTION_DAYS)', () => {
  it('makes no second shipment when the order is seen again: the provider answers with the one it has', async () => {
    const s = await start();
    const id = FIXTURE.paidCopenhagen;
    await s.parts.enqueueOrder(id, 'orders/paid');
    await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');
    const orderNumber = (await s.records.get(id))?.orderNumber;
    // What expiry leaves: no record, and (after 7 days) no completed job either.
    await s.redis.del(`${s.prefix}:order:${id}`);
    await (await s.queues.createShipment.getJob(orderJobId(id)))?.remove();

    expect(await s.parts.enqueueOrder(id, 'orders/updated')).toBe('queued');
    const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');

    expect(job.returnvalue).toEqual({ outcome: 'registered', orderNumber, created: false });
    expect(createRequests(s.sandbox).map((r) => r.status)).toEqual([201, 200]);
    expect(shipmentsWithReference(s.sandbox, id)).toHaveLength(1);
    expect(await s.records.get(id)).toMatchObject({ state: 'registered', orderNumber });
  });
});
