import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import { formatOrderReport, reportOrder } from '../../src/cli/order.js';
import type { SharedParts } from '../../src/compose/parts.js';
import type { OrderRecords } from '../../src/records/order-records.js';
import { runConnector } from '../helpers/connector-cli.js';
import { intakeParts } from '../helpers/intake.js';
import { dropKeys, REDIS_URL, testRedis, uniquePrefix } from '../helpers/redis.js';

let redis: Redis;
let prefix: string;
let parts: SharedParts;
let queues: SharedParts['queues'];
let records: OrderRecords;

beforeEach(() => {
  redis = testRedis();
  prefix = uniquePrefix('order-cli');
  parts = intakeParts(redis, prefix);
  ({ queues, records } = parts);
});

afterEach(async () => {
  await parts.close();
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

    const text = formatOrderReport(await reportOrder('5551234', parts));

    expect(text).toContain('State: refused');
    expect(text).toContain('receiver.address.postal_code: missing');
    expect(text).toContain('Job order-5551234: waiting, 0 attempt(s) made');
  });

  it('shows the provider order number of a registered order', async () => {
    await records.markRegistered('42', {
      orderNumber: 'PS-000042',
      status: 'pending',
      createdAt: '2026-11-22T10:00:00+01:00',
    });
    const report = await reportOrder('42', parts);
    expect(report.job).toBeNull();
    expect(formatOrderReport(report)).toContain('Provider order number: PS-000042');
  });

  it('says which parts of a registered order were edited since, never their values', async () => {
    await records.markRegistered('42', {
      orderNumber: 'PS-000042',
      status: 'pending',
      createdAt: '2026-11-22T10:00:00+01:00',
    });
    await records.reportEdit('42', 'receiver=0;lines=1;weights=2', ['receiver', 'lines']);

    expect(formatOrderReport(await reportOrder('42', parts))).toMatch(
      /Edited in Shopify after registration \(.+\): the receiver \(name, address or phone\) and the lines \(items or quantities\) changed; tell the provider\./,
    );
  });

  it('says so when the order was never seen', async () => {
    const text = formatOrderReport(await reportOrder('7', parts));
    expect(text).toContain('has not seen this order');
  });

  it('reads an order with REDIS_URL and QUEUE_PREFIX alone', async () => {
    await records.markFailed('5551234', 'Order #1001 cannot be shipped as it is');
    const run = await runConnector(['order', '5551234'], { REDIS_URL, QUEUE_PREFIX: prefix });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('State: refused');
    expect(run.code).toBe(0);
  }, 30_000);
});
