import { Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { formatReplaySummary } from '../../src/cli/replay.js';
import { orderJobId } from '../../src/compose/parts.js';
import {
  REPLAYABLE_QUEUES,
  replayJobs,
  UnknownJobError,
  UnknownQueueError,
} from '../../src/compose/replay.js';
import { claimPartnerEnvironment } from '../../src/records/partner-environment.js';
import { addFailedJob, fullConnectorEnv, runConnector } from '../helpers/connector-cli.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';
import {
  createRequests,
  FIXTURE,
  metafield,
  shipmentStacks,
  shipmentsWithReference,
  waitForJob,
  waitUntil,
} from '../helpers/shipment-stack.js';

const stackFor = shipmentStacks();
const ORDER = FIXTURE.paidCopenhagen;

describe('connector replay', () => {
  it('retries a create job that failed for good, as a replay; a dry run before changes nothing', async () => {
    const stack = await stackFor();
    // Every attempt is answered 500 (after the provider stored the shipment).
    stack.sandbox.failNextCreates(stack.config.createJob.attempts);
    await stack.parts.enqueueOrder(ORDER, 'orders/paid');
    await waitForJob(stack.queues.createShipment, orderJobId(ORDER), 'failed');
    const postsBefore = createRequests(stack.sandbox).length;

    const dry = await replayJobs(stack.parts, { queue: 'create-shipment', dryRun: true });
    expect(dry).toMatchObject([{ jobId: orderJobId(ORDER), orderId: ORDER, outcome: 'retried' }]);
    expect(formatReplaySummary(dry, { queue: 'create-shipment', dryRun: true })).toMatch(
      /^Dry run, nothing changed: 1 job\(s\) in create-shipment: 1 would be retried/,
    );
    expect(await stack.queues.createShipment.getJobState(orderJobId(ORDER))).toBe('failed');

    // Given up on by the retry-failed-jobs schedule as well: a replay starts afresh.
    const failed = await stack.queues.createShipment.getJob(orderJobId(ORDER));
    await failed!.updateData({ ...failed!.data, interruptedRetries: 3 });

    const done = await replayJobs(stack.parts, { queue: 'create-shipment' });
    expect(done).toMatchObject([{ outcome: 'retried' }]);
    await waitForJob(stack.queues.createShipment, orderJobId(ORDER), 'completed');
    expect((await stack.queues.createShipment.getJob(orderJobId(ORDER)))?.data).toMatchObject({
      interruptedRetries: 0,
    });
    expect(await stack.records.isRegistered(ORDER)).toBe(true);
    // Sent once more, and the provider still holds one shipment for the order.
    expect(createRequests(stack.sandbox).length).toBe(postsBefore + 1);
    expect(shipmentsWithReference(stack.sandbox, ORDER)).toHaveLength(1);
  });

  it('does not send a registered order again: its failed create job stays, its failed mark is retried', async () => {
    const stack = await stackFor({ workers: false });
    await addFailedJob(stack.queues.createShipment, stack.redis, {
      name: 'create-shipment',
      data: { orderId: ORDER, source: 'orders/paid' },
      jobId: orderJobId(ORDER),
    });
    await stack.records.markRegistered(ORDER, { orderNumber: 'PS-000777', status: 'created' });
    await addFailedJob(stack.queues.markOrder, stack.redis, {
      name: 'registered',
      data: { orderId: ORDER, kind: 'registered' },
      jobId: `registered-${ORDER}`,
    });
    stack.startWorkers();

    const dry = await replayJobs(stack.parts, { queue: 'create-shipment', dryRun: true });
    expect(dry).toMatchObject([
      { outcome: 'already_registered', markRetried: `registered-${ORDER}` },
    ]);
    expect(await stack.queues.markOrder.getJobState(`registered-${ORDER}`)).toBe('failed');

    const done = await replayJobs(stack.parts, {
      queue: 'create-shipment',
      jobId: orderJobId(ORDER),
    });
    expect(done).toMatchObject([
      { outcome: 'already_registered', markRetried: `registered-${ORDER}` },
    ]);
    // The mark ran (so the workers are running) and wrote the order number.
    await waitForJob(stack.queues.markOrder, `registered-${ORDER}`, 'completed');
    await waitUntil(() => metafield(stack.store, ORDER, 'order_number') === 'PS-000777');
    expect(await stack.queues.createShipment.getJobState(orderJobId(ORDER))).toBe('failed');
    expect(createRequests(stack.sandbox)).toHaveLength(0);
  });

  it('retries only what failed since --since, and says when nothing did', async () => {
    const stack = await stackFor({ workers: false });
    await addFailedJob(stack.queues.checkOrderEdit, stack.redis, {
      name: 'check-order-edit',
      // Retried 10 times by the retry-failed-jobs schedule, failing each time.
      data: { orderId: ORDER, scheduledRetries: 10 },
      jobId: `check-edit-${ORDER}-1`,
    });
    const future = new Date(Date.now() + 3600_000);
    expect(await replayJobs(stack.parts, { queue: 'check-order-edit', since: future })).toEqual([]);
    expect(formatReplaySummary([], { queue: 'check-order-edit', since: future })).toContain(
      'Nothing to replay: no failed job in check-order-edit since',
    );
    const past = new Date(Date.now() - 3600_000);
    expect(await replayJobs(stack.parts, { queue: 'check-order-edit', since: past })).toMatchObject(
      [{ jobId: `check-edit-${ORDER}-1`, outcome: 'retried' }],
    );
    expect(await stack.queues.checkOrderEdit.getJobState(`check-edit-${ORDER}-1`)).toBe('waiting');
    // Replayed by staff, it starts afresh: the schedule may retry it again if it fails.
    expect((await stack.queues.checkOrderEdit.getJob(`check-edit-${ORDER}-1`))?.data).toEqual({
      orderId: ORDER,
      scheduledRetries: 0,
    });
    // Not failed any more: asked for by id, it is left as it is.
    expect(
      await replayJobs(stack.parts, { queue: 'check-order-edit', jobId: `check-edit-${ORDER}-1` }),
    ).toMatchObject([{ outcome: 'not_failed', state: 'waiting' }]);
  });

  it('refuses a queue not in the catalog, naming the queues, and a job that does not exist', async () => {
    const stack = await stackFor({ workers: false });
    await expect(replayJobs(stack.parts, { queue: 'create-shipments' })).rejects.toThrow(
      UnknownQueueError,
    );
    await expect(replayJobs(stack.parts, { queue: 'nope' })).rejects.toThrow(
      `The queues are: ${REPLAYABLE_QUEUES.join(', ')}.`,
    );
    await expect(
      replayJobs(stack.parts, { queue: 'create-shipment', jobId: 'order-1' }),
    ).rejects.toThrow(UnknownJobError);
  });
});

describe('connector replay (child process)', () => {
  const redis = testRedis();
  const prefix = uniquePrefix('replay-cli');
  const env = fullConnectorEnv(prefix, {
    partner: 'http://127.0.0.1:9/api/v1',
    store: 'http://127.0.0.1:9',
  });
  afterAll(async () => {
    await dropKeys(redis, prefix);
    await redis.quit();
  });

  it('exits 2 for an unknown queue, listing the queues', async () => {
    const run = await runConnector(['replay', '--queue', 'nope', '--failed'], env);
    expect(run.stderr).toContain(
      `No queue "nope". The queues are: ${REPLAYABLE_QUEUES.join(', ')}.`,
    );
    expect(run.code).toBe(2);
  }, 30_000);

  it('exits 66 for a job that does not exist', async () => {
    const run = await runConnector(
      ['replay', '--queue', 'mark-order', '--job', 'registered-1'],
      env,
    );
    expect(run.stderr).toContain('No job "registered-1" in the mark-order queue');
    expect(run.code).toBe(66);
  }, 30_000);

  it('prints the whole reason a job failed, every line of it', async () => {
    const queue = new Queue('mark-order', { connection: redis, prefix });
    const reason =
      'Order #1003 cannot be shipped as it is:\n  receiver.address.postal_code: missing';
    await addFailedJob(
      queue,
      redis,
      {
        name: 'mark-order',
        data: { orderId: '5550003', kind: 'failed' },
        jobId: 'failed-5550003-1',
      },
      reason,
    );
    await queue.close();
    const run = await runConnector(
      ['replay', '--queue', 'mark-order', '--failed', '--dry-run'],
      env,
    );
    expect(run.stdout).toContain(
      'mark-order/failed-5550003-1 (order 5550003): would retry; it failed: Order #1003 cannot be shipped as it is:\n      receiver.address.postal_code: missing',
    );
    expect(run.code).toBe(0);
  }, 30_000);

  it('refuses a dry run as it refuses the real run when the records belong to another environment', async () => {
    const other = uniquePrefix('replay-cli-other');
    await claimPartnerEnvironment(redis, other, {
      apiUrl: 'http://127.0.0.1:8/api/v1',
      token: 'sbx_another_token',
    });
    try {
      for (const dryRun of [['--dry-run'], []]) {
        const run = await runConnector(
          ['replay', '--queue', 'create-shipment', '--failed', ...dryRun],
          { ...env, QUEUE_PREFIX: other },
        );
        expect(run.stderr).toContain(
          `QUEUE_PREFIX=${other} holds the records of another partner environment or account`,
        );
        expect(run.stderr).toContain('connector environment forget --yes');
        expect(run.code).toBe(78);
      }
    } finally {
      await dropKeys(redis, other);
    }
  }, 30_000);

  it('exits 0 and says so when nothing failed; refuses --job with --failed', async () => {
    const run = await runConnector(['replay', '--queue', 'create-shipment', '--failed'], env);
    expect(run.stdout).toContain('Nothing to replay: no failed job in create-shipment.');
    expect(run.code).toBe(0);
    const both = await runConnector(
      ['replay', '--queue', 'create-shipment', '--failed', '--job', 'order-1'],
      env,
    );
    expect(both.code).toBe(2);
  }, 30_000);
});
