import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import { reconcileOrders } from '../../jobs/reconcile-orders/reconcile.js';
import { allJobs } from '../helpers/intake.js';
import { editOrderInShopify } from '../helpers/order-edits.js';
import {
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

describe('an order given up on after a provider outage', () => {
  it('starts no new round of retries on its own events; a replay does', async () => {
    const s = await start();
    s.sandbox.failNextCreates(3);
    await s.parts.enqueueOrder(ID, 'orders/create');
    const gaveUp = await waitForJob(s.queues.createShipment, orderJobId(ID), 'failed');
    expect(gaveUp.attemptsMade).toBe(3);
    await waitUntil(() => s.store.order(ID)?.tags.includes('shipment-error'), {
      what: 'the error tag',
    });
    // The outage would go on: every new round would be three more requests.
    s.sandbox.failNextCreates(3);

    expect(await s.parts.enqueueOrder(ID, 'orders/updated')).toBe('requeued');
    await runEnds(s, 2);
    expect((await reconcile(s)).queued).toBe(1);
    await runEnds(s, 3);
    expect(createRequests(s.sandbox)).toHaveLength(3);

    // Once the outage is over, staff replay it.
    s.sandbox.failNextCreates(0);
    expect(await s.parts.enqueueOrder(ID, 'replay')).toBe('requeued');
    await waitForJob(s.queues.createShipment, orderJobId(ID), 'completed');
    expect(shipmentsWithReference(s.sandbox, ID)).toHaveLength(1);
    expect(createRequests(s.sandbox)).toHaveLength(4);
  });
});
