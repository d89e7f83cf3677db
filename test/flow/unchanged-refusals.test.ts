import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import { reconcileOrders } from '../../jobs/reconcile-orders/reconcile.js';
import { allJobs } from '../helpers/intake.js';
import { editOrderInShopify } from '../helpers/order-edits.js';
import {
  countingReservations,
  createRequests,
  FIXTURE,
  type ShipmentStack,
  STORE_TOKEN,
  shipmentStacks,
  shipmentsWithReference,
  waitForJob,
  waitUntil,
} from '../helpers/shipment-stack.js';

const start = shipmentStacks();
afterEach(() => {
  nock.cleanAll();
});

const ID = FIXTURE.paidCopenhagen;

/** The provider refuses every create (a rule of its own we cannot check); counts the POSTs. */
function providerRefuses(s: ShipmentStack) {
  const posts = { count: 0 };
  nock(new URL(s.sandbox.url).origin, { allowUnmocked: true })
    .persist()
    .post('/api/v1/shipments')
    .reply(() => {
      posts.count++;
      return [
        422,
        {
          success: false,
          message: 'The given data was invalid.',
          errors: { 'receiver.name': ['The name may not be greater than 5 characters.'] },
        },
      ];
    });
  return posts;
}

/** Waits until the order's create job has run `runs` times in all and has failed again. */
async function runEnds(s: ShipmentStack, runs: number) {
  await waitUntil(async () => (await runsOf(s)) >= runs, { what: `run ${runs} of the job` });
  return waitForJob(s.queues.createShipment, orderJobId(ID), 'failed');
}

/** Runs of the order's create job so far: each ends refused, turned away unchanged, or given up. */
async function runsOf(s: ShipmentStack): Promise<number> {
  const counters = await s.counters.read();
  return (
    (counters.orders_refused ?? 0) +
    (counters.unchanged_refusals_not_resent ?? 0) +
    (counters.shipment_create_failures ?? 0)
  );
}

/** What reconciliation does with the order when it shows up in a pass. */
function reconcile(s: ShipmentStack) {
  return reconcileOrders(new Date(Date.now() - 3_600_000), 'reconcile', {
    ...s.parts,
    store: s.storeClient,
    eligibility: s.config.eligibility,
  });
}

describe('an order the provider refused, brought back by its own events', () => {
  it('is not sent again until it changes; a replay sends it; a change sends it', async () => {
    const s = await start();
    const posts = providerRefuses(s);
    await s.parts.enqueueOrder(ID, 'orders/create');
    const refused = await waitForJob(s.queues.createShipment, orderJobId(ID), 'failed');
    expect(posts.count).toBe(1);
    await waitUntil(() => s.store.order(ID)?.tags.includes('shipment-error'), {
      what: 'the error tag',
    });

    // The error mark fired orders/updated, and the order is in the next reconciliation pass.
    expect(await s.parts.enqueueOrder(ID, 'orders/updated')).toBe('requeued');
    await runEnds(s, 2);
    expect((await reconcile(s)).queued).toBe(1);
    const job = await runEnds(s, 3);

    expect(posts.count).toBe(1);
    expect(job.failedReason).toBe(refused.failedReason);
    expect((await s.counters.read()).unchanged_refusals_not_resent).toBe(2);
    expect(
      (await allJobs(s.queues.markOrder)).filter((j) => j.data.kind === 'failed'),
    ).toHaveLength(1);

    // Staff replay it (the provider's rules may have changed): it is sent.
    expect(await s.parts.enqueueOrder(ID, 'replay')).toBe('requeued');
    await runEnds(s, 4);
    expect(posts.count).toBe(2);

    // A retry from the board is staff too.
    await (await s.queues.createShipment.getJob(orderJobId(ID)))!.retry('failed', {
      resetAttemptsMade: true,
    });
    await runEnds(s, 5);
    expect(posts.count).toBe(3);

    // Staff shorten the receiver's name in Shopify: the change brings it back, and it is sent.
    await editOrderInShopify(s.store, STORE_TOKEN, ID, (order) => {
      order.shippingAddress.name = 'Mette';
    });
    expect(await s.parts.enqueueOrder(ID, 'orders/updated')).toBe('requeued');
    await runEnds(s, 6);
    expect(posts.count).toBe(4);
  });
});

describe('an unchanged refused order brought back by an event', () => {
  it('is refused again without taking a place in the partner budget; a change takes one', async () => {
    const s = await start({ workers: false });
    const { client, counted } = countingReservations(s.partner);
    s.startWorkers({ ports: { partner: client } });
    providerRefuses(s);
    await s.parts.enqueueOrder(ID, 'orders/create');
    await runEnds(s, 1);
    expect(counted.reserved).toBe(1);

    expect(await s.parts.enqueueOrder(ID, 'orders/updated')).toBe('requeued');
    await runEnds(s, 2);
    expect((await s.counters.read()).unchanged_refusals_not_resent).toBe(1);
    expect(counted.reserved).toBe(1);

    await editOrderInShopify(s.store, STORE_TOKEN, ID, (order) => {
      order.shippingAddress.name = 'Mette';
    });
    expect(await s.parts.enqueueOrder(ID, 'orders/updated')).toBe('requeued');
    await runEnds(s, 3);
    expect(counted.reserved).toBe(2);
  });
});

/** The provider fails every create with 500 before it stores anything; counts the POSTs. */
function providerDown(s: ShipmentStack) {
  const posts = { count: 0 };
  const scope = nock(new URL(s.sandbox.url).origin, { allowUnmocked: true })
    .persist()
    .post('/api/v1/shipments')
    .reply(() => {
      posts.count++;
      return [500, { success: false, message: 'Server Error' }];
    });
  return {
    posts,
    recover: () => {
      scope.persist(false);
      nock.cleanAll();
    },
  };
}

/** The sandbox's look-ups of one shipment (GET /shipments/{reference}). */
function lookups(s: ShipmentStack) {
  return s.sandbox.requests.filter(
    (r) => r.method === 'GET' && r.path.endsWith(`/shipments/${ID}`),
  );
}

describe('an unchanged refusal whose run meets a Shopify hiccup', () => {
  it('is still not sent again by the retry of that run', async () => {
    const s = await start({ storeClient: { maxThrottleWaits: 0 } });
    const posts = providerRefuses(s);
    await s.parts.enqueueOrder(ID, 'orders/create');
    await waitForJob(s.queues.createShipment, orderJobId(ID), 'failed');
    expect(posts.count).toBe(1);

    // The order's own event; its run's first attempt cannot read the order (Shopify throttles).
    s.store.rateLimitNext(1);
    expect(await s.parts.enqueueOrder(ID, 'orders/updated')).toBe('requeued');
    const job = await runEnds(s, 2);

    expect(job.attemptsMade).toBe(2);
    expect(posts.count).toBe(1);
    expect((await s.counters.read()).unchanged_refusals_not_resent).toBe(1);
  });
});

describe('an order given up on after a provider outage', () => {
  it('starts no new round of retries on its own events, asks the provider once; a replay sends it', async () => {
    const s = await start();
    const outage = providerDown(s);
    await s.parts.enqueueOrder(ID, 'orders/create');
    const gaveUp = await waitForJob(s.queues.createShipment, orderJobId(ID), 'failed');
    expect(gaveUp.attemptsMade).toBe(3);
    await waitUntil(() => s.store.order(ID)?.tags.includes('shipment-error'), {
      what: 'the error tag',
    });

    // Its own events: one look-up at the provider (did a lost answer make a shipment? no), and
    // no new round of POSTs against an outage that may go on.
    expect(await s.parts.enqueueOrder(ID, 'orders/updated')).toBe('requeued');
    await runEnds(s, 2);
    expect((await reconcile(s)).queued).toBe(1);
    await runEnds(s, 3);
    expect(outage.posts.count).toBe(3);
    expect(lookups(s).map((r) => r.status)).toEqual([404]);

    // Once the outage is over, staff replay it.
    outage.recover();
    expect(await s.parts.enqueueOrder(ID, 'replay')).toBe('requeued');
    await waitForJob(s.queues.createShipment, orderJobId(ID), 'completed');
    expect(shipmentsWithReference(s.sandbox, ID)).toHaveLength(1);
    expect(createRequests(s.sandbox)).toHaveLength(1);
  });

  it('is registered on its next event when the provider had made the shipment after all', async () => {
    const s = await start();
    // The sandbox stores the shipment, then answers 500: every answer is lost.
    s.sandbox.failNextCreates(3);
    await s.parts.enqueueOrder(ID, 'orders/create');
    await waitForJob(s.queues.createShipment, orderJobId(ID), 'failed');
    await waitUntil(() => s.store.order(ID)?.tags.includes('shipment-error'), {
      what: 'the error tag',
    });

    expect(await s.parts.enqueueOrder(ID, 'orders/updated')).toBe('requeued');
    const job = await waitForJob(s.queues.createShipment, orderJobId(ID), 'completed');

    expect(job.returnvalue).toMatchObject({ outcome: 'registered', created: false });
    expect(createRequests(s.sandbox)).toHaveLength(3);
    expect(lookups(s).map((r) => r.status)).toEqual([200]);
    expect(shipmentsWithReference(s.sandbox, ID)).toHaveLength(1);
    await waitForJob(s.queues.markOrder, `registered-${ID}`, 'completed');
    expect(s.store.order(ID)?.tags).toContain('shipment-registered');
    expect(s.store.order(ID)?.tags).not.toContain('shipment-error');
  });
});
