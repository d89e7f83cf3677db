import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatOrderReport, reportOrder } from '../../src/cli/order.js';
import { orderJobId } from '../../src/queue/names.js';
import { allQueues, createQueues, type Queues } from '../../src/queue/queues.js';
import { OrderRecords } from '../../src/records/order-records.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';

let redis: Redis;
let prefix: string;
let queues: Queues;
let records: OrderRecords;

beforeEach(() => {
  redis = testRedis();
  prefix = uniquePrefix('order-cli');
  queues = createQueues(redis, prefix, { attempts: 3, backoff: { firstMs: 10, maxMs: 10 } });
  records = new OrderRecords(redis, prefix);
});

afterEach(async () => {
  await Promise.all(allQueues(queues).map((q) => q.close()));
  await dropKeys(redis, prefix);
  await redis.quit();
});

describe('connector order', () => {
  it('shows why an order was refused, and its job', async () => {
    await records.markFailed(
      '5551234',
      'Order #1001 cannot be shipped as it is:\nreceiver.address.postal_code: missing',
    );
    await queues.createShipment.add(
      'create-shipment',
      { orderId: '5551234', source: 'test' },
      {
        jobId: orderJobId('5551234'),
      },
    );

    const text = formatOrderReport(await reportOrder('5551234', queues, records));

    expect(text).toContain('State: failed');
    expect(text).toContain('receiver.address.postal_code: missing');
    expect(text).toContain('Job order-5551234: waiting, 0 attempt(s) made');
  });

  it('shows the provider order number of a registered order', async () => {
    await records.markRegistered('42', {
      orderNumber: 'PS-000042',
      status: 'pending',
      createdAt: '2026-11-22T10:00:00+01:00',
    });
    const report = await reportOrder('42', queues, records);
    expect(report.job).toBeNull();
    expect(formatOrderReport(report)).toContain('Provider order number: PS-000042');
  });

  it('says so when the order was never seen', async () => {
    const text = formatOrderReport(await reportOrder('7', queues, records));
    expect(text).toContain('has not seen this order');
  });
});
