import { afterAll, describe, expect, it } from 'vitest';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import type { StoreCostGate, StorePriority } from '../../src/store/index.js';
import { SharedStoreBucket } from '../../src/store/transport/shared-bucket.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';
import { FIXTURE, shipmentStacks, waitForJob } from '../helpers/shipment-stack.js';
import { providerClock, runSync, settled } from '../helpers/status-sync.js';

const start = shipmentStacks();
const redis = testRedis();
const prefix = uniquePrefix('flow-priority');

afterAll(async () => {
  await dropKeys(redis, prefix);
  await redis.quit();
});

/** The shop's bucket, noting the priority each operation asked with. */
function notingBucket() {
  const bucket = new SharedStoreBucket(redis, {
    prefix,
    shop: 'demo.myshopify.com',
    reserveShare: 0,
    followUpReserve: 0.8,
  });
  const asked = new Map<string, Set<StorePriority | undefined>>();
  const gate: StoreCostGate = {
    take(request, maxWaitMs) {
      if (!request.booked) {
        const priorities = asked.get(request.operation) ?? new Set();
        asked.set(request.operation, priorities.add(request.priority));
      }
      return bucket.take(request, maxWaitMs);
    },
    settle: (ticket, answer) => bucket.settle(ticket, answer),
  };
  return { gate, asked };
}

describe("the jobs' Shopify requests in the shop's bucket", () => {
  it('wait as registrations while an order is registered, and go ahead as follow-ups after', async () => {
    const { gate, asked } = notingBucket();
    const time = providerClock();
    const s = await start({ sandbox: { clock: time.clock }, storeClient: { bucket: gate } });
    const id = FIXTURE.paidCopenhagen;
    await s.parts.enqueueOrder(id, 'orders/paid');
    await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');
    await settled(s);
    for (const status of ['processing', 'shipped', 'delivered'] as const) {
      time.tick();
      s.sandbox.advance(id, status, { carrier: 'Bring', trackingNumber: '70701234567' });
      await runSync(s);
      await settled(s);
    }

    expect(s.store.order(id)!.fulfillments[0]?.displayStatus).toBe('DELIVERED');
    const byPriority = (priority: StorePriority) =>
      [...asked].filter(([, priorities]) => priorities.has(priority)).map(([op]) => op);
    expect(byPriority('registration').sort()).toEqual(['GetOrder', 'WriteOrderMarks']);
    expect(byPriority('follow-up')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ReportFulfillmentOrderProgress/),
        expect.stringMatching(/^CreateFulfillment(WithStatus)?$/),
        expect.stringMatching(/^CreateFulfillmentEvent/),
      ]),
    );
    expect([...asked.values()].every((priorities) => priorities.size === 1)).toBe(true);
  });
});
