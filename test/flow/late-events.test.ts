import { describe, expect, it } from 'vitest';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import { startWorkers } from '../../src/compose/workers.js';
import type { OrderRecords } from '../../src/records/order-records.js';
import {
  FIXTURE,
  shipmentStacks,
  shipmentsWithReference,
  waitUntil,
} from '../helpers/shipment-stack.js';

const start = shipmentStacks();

describe('an event that comes as an order’s job ends', () => {
  it('gets a run of its own, though it came after the job’s last look', async () => {
    const s = await start({ workers: false });
    const id = FIXTURE.unpaidRoskilde;
    // The records as the service has them, except that right after the run's last look for
    // events, the order is paid and its webhook asks the (still active) job to look again.
    const records: OrderRecords = Object.create(s.records);
    let looks = 0;
    records.takeRerun = async (orderId) => {
      const taken = await s.records.takeRerun(orderId);
      if (++looks === 1) {
        await s.store.updateOrder(id, { markPaid: true }, { sendWebhook: false });
        await s.records.requestRerun(orderId);
      }
      return taken;
    };
    const workers = startWorkers({ ...s.context, records }, { connection: s.redis });
    try {
      await s.parts.enqueueOrder(id, 'orders/create');

      await waitUntil(async () => (await s.records.get(id))?.state === 'registered', {
        what: 'the paid order to be registered',
      });
      expect(shipmentsWithReference(s.sandbox, id)).toHaveLength(1);
      const job = await s.queues.createShipment.getJob(orderJobId(id));
      expect(job?.data.source).toBe('event-during-run');
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
    }
  });
});
