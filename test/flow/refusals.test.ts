import { Worker } from 'bullmq';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { createShipmentJob, orderJobId } from '../../jobs/create-shipment/job.js';
import { processorFor } from '../../jobs/processor.js';
import type { StoreClient } from '../../src/store/types.js';
import {
  createRequests,
  eventually,
  FIXTURE,
  holdPoint,
  metafield,
  type ShipmentStack,
  shipmentStacks,
  shipmentsWithReference,
  waitForJob,
  waitUntil,
} from '../helpers/shipment-stack.js';

const start = shipmentStacks();
afterEach(() => {
  nock.cleanAll();
});

/** Waits for the failure mark job (its job id carries a timestamp) to reach the order. */
async function errorWrittenBack(s: ShipmentStack, orderId: string) {
  await waitUntil(() => s.store.order(orderId)?.tags.includes('shipment-error'), {
    what: `the shipment-error tag on ${orderId}`,
  });
  await waitUntil(() => metafield(s.store, orderId, 'error'), {
    what: `the error metafield on ${orderId}`,
  });
}

describe('an order that cannot be shipped as it is', () => {
  it.each([
    {
      what: 'no postal code',
      id: FIXTURE.missingPostalCodeOdense,
      field: "receiver.address.postal_code: The order's shipping address has no postal code.",
      personal: ['Sofie', 'Jensen', 'Vestergade', '4541234567', 'sofie.jensen@example.dk'],
    },
    {
      what: 'a 45 kg unit',
      id: FIXTURE.heavyAalborg,
      field:
        "packages: Line item 'Oak garden bench' weighs 45 kg per unit; the most one package may weigh is 30 kg.",
      personal: ['Anders', 'Pedersen', 'Boulevarden', '4551234567', 'anders.pedersen@example.dk'],
    },
  ])(
    'fails at once ($what), says why without personal data, and marks the order',
    async ({ id, field, personal }) => {
      const s = await start();

      await s.parts.enqueueOrder(id, 'test');
      const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'failed');

      expect(job.attemptsMade).toBe(1);
      expect(job.failedReason).toContain(field);
      for (const value of personal) expect(job.failedReason).not.toContain(value);
      expect(createRequests(s.sandbox)).toEqual([]);

      const record = await s.records.get(id);
      expect(record).toMatchObject({ state: 'failed', reason: job.failedReason });
      expect((await s.counters.read()).orders_refused).toBe(1);

      await errorWrittenBack(s, id);
      expect(metafield(s.store, id, 'error')).toBe(job.failedReason);
      expect(metafield(s.store, id, 'status')).toBe('error');
      expect(s.store.order(id)?.tags).not.toContain('shipment-registered');
    },
  );

  it('writes the same refusal to the order only once, so its own mark job cannot loop', async () => {
    const s = await start();
    const id = FIXTURE.missingPostalCodeOdense;
    await s.parts.enqueueOrder(id, 'test');
    await waitForJob(s.queues.createShipment, orderJobId(id), 'failed');
    await errorWrittenBack(s, id);

    // The mark job changed the order, so Shopify (or reconciliation) brings it back unfixed.
    expect(await s.parts.enqueueOrder(id, 'orders/updated')).toBe('requeued');
    await waitUntil(async () => (await s.counters.read()).unchanged_refusals_not_resent === 1, {
      what: 'the unchanged order to be turned away',
    });
    await waitForJob(s.queues.createShipment, orderJobId(id), 'failed');

    expect((await s.counters.read()).orders_refused).toBe(1);
    const markJobs = await s.queues.markOrder.getJobs(['waiting', 'active', 'completed', 'failed']);
    expect(markJobs.filter((j) => j.data.kind === 'failed')).toHaveLength(1);
  });

  it('fails at once on a 422 from the provider, listing its field errors', async () => {
    const s = await start();
    const id = FIXTURE.paidCopenhagen;
    // A rule the provider has and we cannot check locally (its length limits are not published).
    // The one answer is replaced at the network edge; every other request reaches the sandbox.
    const origin = new URL(s.sandbox.url).origin;
    const refusal = nock(origin, { allowUnmocked: true })
      .post('/api/v1/shipments')
      .reply(422, {
        success: false,
        message: 'The given data was invalid.',
        errors: {
          'receiver.address.street': ['The street may not be greater than 20 characters.'],
        },
      });

    await s.parts.enqueueOrder(id, 'test');
    const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'failed');

    expect(refusal.isDone()).toBe(true);
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toContain('The provider refused order #1001');
    expect(job.failedReason).toContain(
      'receiver.address.street: The street may not be greater than 20 characters.',
    );
    expect(job.failedReason).not.toContain('Nørrebrogade');
    expect(await s.records.get(id)).toMatchObject({ state: 'failed', reason: job.failedReason });
    await errorWrittenBack(s, id);
    expect(shipmentsWithReference(s.sandbox, id)).toEqual([]);
  });

  describe('forgets only the send it made itself', () => {
    const streetTooLong = {
      success: false,
      message: 'The given data was invalid.',
      errors: { 'receiver.address.street': ['The street may not be greater than 20 characters.'] },
    };
    const sentFields = [
      'sentAt',
      'firstSentAtMs',
      'lastSentAtMs',
      'sentFingerprint',
      'sentUnits',
      'sentSettings',
    ] as const;
    /** The provider's 422, answered once `meanwhile` has run while the request is out. */
    function refuseAfter(s: ShipmentStack, meanwhile: () => Promise<void>) {
      return nock(new URL(s.sandbox.url).origin, { allowUnmocked: true })
        .post('/api/v1/shipments')
        .reply(422, (_uri, _body, answer) => {
          meanwhile().then(
            () => answer(null, streetTooLong),
            (error: Error) => answer(error, ''),
          );
        });
    }

    it('leaves no send on the record after a 422 to its only request', async () => {
      const s = await start();
      const id = FIXTURE.paidCopenhagen;
      let atRefusal: Awaited<ReturnType<typeof s.records.get>> = null;
      const refusal = refuseAfter(s, async () => {
        atRefusal = await s.records.get(id);
      });

      await s.parts.enqueueOrder(id, 'test');
      const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'failed');

      expect(refusal.isDone()).toBe(true);
      expect(job.failedReason).toContain('The provider refused order #1001');
      // The send was recorded before the request left, so there was something to forget.
      for (const field of sentFields) expect(atRefusal?.[field]).toBeDefined();
      const record = await s.records.get(id);
      expect(record).toMatchObject({ state: 'failed', reason: job.failedReason });
      for (const field of sentFields) expect(record?.[field]).toBeUndefined();
    });

    it("keeps another run's send that landed before the 422 came back", async () => {
      const s = await start();
      const id = FIXTURE.paidCopenhagen;
      // Another run of the order sends at a time of its own while this run's request is out.
      const theirs = new Date('2031-03-04T05:06:07.089Z');
      let ours: string | undefined;
      const refusal = refuseAfter(s, async () => {
        ours = (await s.records.get(id))?.sentAt;
        await s.records.markSending(id, 'their-fingerprint', theirs, 'their-units', 'theirs');
      });

      await s.parts.enqueueOrder(id, 'test');
      const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'failed');

      expect(refusal.isDone()).toBe(true);
      expect(job.failedReason).toContain('The provider refused order #1001');
      expect(ours).toBeDefined();
      expect(ours).not.toBe(theirs.toISOString());
      const record = await s.records.get(id);
      expect(record).toMatchObject({
        state: 'failed',
        reason: job.failedReason,
        sentAt: theirs.toISOString(),
      });
      // Still known as sent: a later sighting looks the order up before sending again.
      for (const field of sentFields) expect(record?.[field]).toBeDefined();
    });
  });

  it('registers the order once it is fixed and queued again, and clears the error tag', async () => {
    // A 3 kg item tagged as a document: documents may weigh at most 2 kg per package.
    const s = await start();
    const { order } = await s.store.createOrder({
      tags: ['document'],
      lineItems: [{ title: 'Binder of contracts', weight: { value: 3, unit: 'KILOGRAMS' } }],
    });
    const jobId = orderJobId(order.id);

    await s.parts.enqueueOrder(order.id, 'orders/create');
    const failed = await waitForJob(s.queues.createShipment, jobId, 'failed');
    expect(failed.failedReason).toContain('the most one document package may weigh is 2 kg');
    await errorWrittenBack(s, order.id);

    // Staff fix the order in Shopify; its orders/updated event queues it again.
    await s.store.updateOrder(order.id, { tags: [] });
    expect(await s.parts.enqueueOrder(order.id, 'orders/updated')).toBe('requeued');
    const job = await waitForJob(s.queues.createShipment, jobId, 'completed');

    const shipments = shipmentsWithReference(s.sandbox, order.id);
    expect(shipments).toHaveLength(1);
    expect(shipments[0]!.request.order_type).toBe('package');
    expect(job.returnvalue).toMatchObject({ outcome: 'registered', created: true });
    const record = await s.records.get(order.id);
    expect(record).toMatchObject({ state: 'registered', orderNumber: shipments[0]!.orderNumber });
    expect(record?.reason).toBeUndefined();

    await waitForJob(s.queues.markOrder, `registered-${order.id}`, 'completed');
    const tags = s.store.order(order.id)?.tags;
    expect(tags).toContain('shipment-registered');
    expect(tags).not.toContain('shipment-error');
    expect(metafield(s.store, order.id, 'status')).toBeUndefined();
    expect(metafield(s.store, order.id, 'order_number')).toBe(shipments[0]!.orderNumber);
    // The refusal's reason and its status "error" went with it: only the registration's marks
    // are left (the tag and the order number show it registered).
    expect(metafield(s.store, order.id, 'error')).toBeUndefined();
    expect(
      s.store
        .order(order.id)
        ?.metafields.map((m) => m.key)
        .sort(),
    ).toEqual(['order_number']);
    expect(
      s.store.mutations.filter((m) => m.orderId === order.id && m.type === 'metafieldsDelete'),
    ).toMatchObject([
      {
        metafields: [
          { namespace: 'partner_shipment', key: 'error', deleted: true },
          { namespace: 'partner_shipment', key: 'status', deleted: true },
        ],
      },
    ]);
  });

  it('registers an order fixed while its job runs, in that same run', async () => {
    // A 3 kg item tagged as a document: documents may weigh at most 2 kg per package.
    const s = await start({ workers: false });
    const { order } = await s.store.createOrder({
      tags: ['document'],
      lineItems: [{ title: 'Binder of contracts', weight: { value: 3, unit: 'KILOGRAMS' } }],
    });
    const jobId = orderJobId(order.id);
    // The job has loaded the order as it was; staff fix it before the refusal is recorded.
    const hold = holdPoint();
    const store: StoreClient = { ...s.storeClient };
    let loads = 0;
    store.getOrder = async (orderId) => {
      const loaded = await s.storeClient.getOrder(orderId);
      if (++loads === 1) await hold.stop();
      return loaded;
    };
    s.startWorkers({ ports: { store } });
    await s.parts.enqueueOrder(order.id, 'orders/create');
    await hold.reached;

    await s.store.updateOrder(order.id, { tags: [] });
    expect(await s.parts.enqueueOrder(order.id, 'orders/updated')).toBe('already_queued');
    hold.release();

    // The run refuses the order as it loaded it, then looks again and registers it as it is now.
    const job = await waitForJob(s.queues.createShipment, jobId, 'completed');
    expect(job.returnvalue).toMatchObject({ outcome: 'registered', created: true });
    expect(job.attemptsMade).toBe(1);
    expect(loads).toBe(2);
    const shipments = shipmentsWithReference(s.sandbox, order.id);
    expect(shipments.map((shipment) => shipment.request.order_type)).toEqual(['package']);
    await waitForJob(s.queues.markOrder, `registered-${order.id}`, 'completed');
    await eventually(() => {
      const tags = s.store.order(order.id)?.tags;
      expect(tags).toContain('shipment-registered');
      expect(tags).not.toContain('shipment-error');
    });
  });

  it('clears its error marks once it is cancelled instead of fixed, and writes nothing more', async () => {
    const s = await start();
    const id = FIXTURE.missingPostalCodeOdense;
    const jobId = orderJobId(id);
    await s.parts.enqueueOrder(id, 'orders/create');
    await waitForJob(s.queues.createShipment, jobId, 'failed');
    await errorWrittenBack(s, id);
    expect(metafield(s.store, id, 'status')).toBe('error');

    // Staff cancel the order in Shopify rather than fix it; orders/cancelled queues it again.
    await s.store.updateOrder(id, { cancel: true });
    expect(await s.parts.enqueueOrder(id, 'orders/cancelled')).toBe('requeued');
    const job = await waitForJob(s.queues.createShipment, jobId, 'completed');
    expect(job.returnvalue).toEqual({
      outcome: 'skipped',
      code: 'cancelled',
      reason: 'Order is cancelled.',
    });
    expect(await s.records.get(id)).toMatchObject({ state: 'skipped', skipCode: 'cancelled' });

    await waitForJob(s.queues.markOrder, `cancelled-after-failure-${id}`, 'completed');
    const order = s.store.order(id)!;
    expect(order.tags).not.toContain('shipment-error');
    expect(order.tags).not.toContain('shipment-registered');
    expect(order.metafields.filter((m) => m.namespace === 'partner_shipment')).toEqual([]);
    expect(createRequests(s.sandbox)).toEqual([]);

    // The tag removal changed the order, so it comes back once more: skipped, nothing written.
    const writes = s.store.mutations.length;
    expect(await s.parts.enqueueOrder(id, 'orders/updated')).toBe('requeued');
    await waitForJob(s.queues.createShipment, jobId, 'completed');
    const markJobs = await s.queues.markOrder.getJobs(['waiting', 'active', 'completed', 'failed']);
    expect(markJobs.filter((j) => j.data.kind === 'cancelled_after_failure')).toHaveLength(1);
    expect(s.store.mutations.length).toBe(writes);
  });
});

describe('an order that is not eligible', () => {
  it.each([
    {
      what: 'unpaid',
      id: FIXTURE.unpaidRoskilde,
      code: 'not_paid',
      reason: 'Financial status is pending; ready statuses are: paid.',
    },
    {
      what: 'a test order',
      id: FIXTURE.testOrderEsbjerg,
      code: 'test',
      reason: 'Order is a test order and test orders are skipped.',
    },
    {
      what: 'cancelled',
      id: FIXTURE.cancelledVejle,
      code: 'cancelled',
      reason: 'Order is cancelled.',
    },
  ])('completes as skipped ($what) and records why', async ({ id, code, reason }) => {
    const s = await start();

    await s.parts.enqueueOrder(id, 'test');
    const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');

    expect(job.returnvalue).toEqual({ outcome: 'skipped', code, reason });
    expect(await s.records.get(id)).toMatchObject({ state: 'skipped', skipCode: code, reason });
    expect(createRequests(s.sandbox)).toEqual([]);
    expect(await s.queues.markOrder.count()).toBe(0);
  });

  it('is queued again and registered once it is paid', async () => {
    const s = await start();
    const id = FIXTURE.unpaidRoskilde;
    await s.parts.enqueueOrder(id, 'orders/create');
    await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');

    await s.store.updateOrder(id, { markPaid: true });
    expect(await s.parts.enqueueOrder(id, 'orders/paid')).toBe('requeued');
    const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');

    expect(job.returnvalue).toMatchObject({ outcome: 'registered', created: true });
    expect(shipmentsWithReference(s.sandbox, id)).toHaveLength(1);
    const record = await s.records.get(id);
    expect(record?.state).toBe('registered');
    expect(record?.skipCode).toBeUndefined();
    expect(record?.reason).toBeUndefined();
    await waitForJob(s.queues.markOrder, `registered-${id}`, 'completed');
    expect(s.store.order(id)?.tags).toContain('shipment-registered');
  });
});

describe('a transient failure that lasts through the last attempt', () => {
  it('gives up on the provider failing every attempt: records why and marks the order', async () => {
    const s = await start();
    const id = FIXTURE.paidCopenhagen;
    s.sandbox.failNextCreates(3);

    await s.parts.enqueueOrder(id, 'test');
    const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'failed');

    expect(job.attemptsMade).toBe(3);
    expect(job.failedReason).toMatch(
      /^Gave up after 3 attempts: Partner API failed on its side \(500\) on POST \/shipments\. Replay the job once the cause is fixed\.$/,
    );
    const posts = createRequests(s.sandbox);
    expect(posts.map((r) => r.status)).toEqual([500, 500, 500]);
    // Backed off between attempts: 50 ms then 100 ms, less at most 20% jitter.
    expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(40);
    expect(posts[2]!.at - posts[1]!.at).toBeGreaterThanOrEqual(80);

    expect(await s.records.get(id)).toMatchObject({ state: 'failed', reason: job.failedReason });
    expect((await s.counters.read()).shipment_create_failures).toBe(1);
    await errorWrittenBack(s, id);
    expect(metafield(s.store, id, 'error')).toBe(job.failedReason);
  });

  it('fails at once when the store refuses access: retrying cannot help', async () => {
    const s = await start();
    const id = FIXTURE.paidCopenhagen;
    // The app's access token was revoked in Shopify: the order read answers 401 (once; the
    // failure mark job afterwards reaches the store as usual).
    nock(s.store.url)
      .post(/\/graphql\.json$/)
      .reply(401, { errors: '[API] Invalid API key or access token' });

    await s.parts.enqueueOrder(id, 'test');
    const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'failed');

    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).not.toMatch(/^Gave up/);
    expect(job.failedReason).toMatch(/Replay the job once the cause is fixed\.$/);
    expect(createRequests(s.sandbox)).toEqual([]);
    expect((await s.records.get(id))?.state).toBe('failed');
  });

  it('gives up on the store throttling every attempt: records why and marks the order', async () => {
    const s = await start({
      storeClient: { maxThrottleWaits: 1, sleep: async () => {} },
    });
    const id = FIXTURE.paidCopenhagen;
    // Each attempt reads the order once and waits once: two refusals per attempt.
    s.store.throttleNext(6);

    await s.parts.enqueueOrder(id, 'test');
    const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'failed');

    expect(job.attemptsMade).toBe(3);
    expect(job.failedReason).toMatch(/^Gave up after 3 attempts: Shopify throttled GetOrder/);
    expect(createRequests(s.sandbox)).toEqual([]);
    expect(await s.records.get(id)).toMatchObject({ state: 'failed', reason: job.failedReason });
    await errorWrittenBack(s, id);
  });
});

describe('an event that arrives while the order is being looked at', () => {
  it('makes the running job look again instead of settling for the old state', async () => {
    const s = await start({ workers: false });
    const id = FIXTURE.unpaidRoskilde;
    let reads = 0;
    // The payment lands (and its webhook with it) after the job has read the unpaid order.
    const store = {
      ...s.storeClient,
      getOrder: async (orderId: string) => {
        const order = await s.storeClient.getOrder(orderId);
        if (reads++ === 0) {
          await s.store.updateOrder(id, { markPaid: true });
          expect(await s.parts.enqueueOrder(id, 'orders/paid')).toBe('already_queued');
        }
        return order;
      },
    } as typeof s.storeClient;
    const worker = new Worker(
      createShipmentJob.queue,
      processorFor(createShipmentJob, { ...s.context, store }),
      { connection: s.redis, prefix: s.prefix },
    );
    try {
      await s.parts.enqueueOrder(id, 'orders/create');
      const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');

      expect(job.returnvalue).toMatchObject({ outcome: 'registered' });
      expect(reads).toBe(2);
      expect(shipmentsWithReference(s.sandbox, id)).toHaveLength(1);
    } finally {
      await worker.close();
    }
  });
});
