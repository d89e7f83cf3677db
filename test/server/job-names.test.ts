import { afterEach, describe, expect, it } from 'vitest';
import { enqueueMarkOrder } from '../../jobs/mark-order/enqueue.js';
import { reconcileOrders } from '../../jobs/reconcile-orders/reconcile.js';
import { FakeStoreState } from '../../src/sandbox/store/state.js';
import { orderWebhookPayload } from '../../src/sandbox/store/webhooks.js';
import {
  allJobs,
  ELIGIBILITY,
  postWebhook,
  type RunningIntake,
  silentLogger,
  startIntake,
  startStore,
  storeClient,
} from '../helpers/intake.js';

/** Job names are what an admin scans the board for: the order's name, as the customer quotes it. */

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function intake(name: string): Promise<RunningIntake> {
  const started = await startIntake({ name });
  closers.push(() => started.close());
  return started;
}

function orderBody(id: string, name: unknown) {
  const order = new FakeStoreState(() => new Date('2026-11-21T10:00:00Z')).createOrder({
    id,
    name: '#1042',
  });
  return JSON.stringify({ ...orderWebhookPayload(order), name });
}

describe('jobs named after their order, ids unchanged', () => {
  it("a webhook's job carries the order's name", async () => {
    const running = await intake('names-webhook');
    const answer = await postWebhook(running.url, {
      topic: 'orders/create',
      body: orderBody('5551234', '#1042'),
    });
    expect(answer.status).toBe(200);
    const [job] = await allJobs(running.queues.createShipment);
    expect(job?.id).toBe('order-5551234');
    expect(job?.name).toBe('#1042 create shipment');
  });

  it('an odd name in the body is left out: the job is still queued, named by the order id', async () => {
    const running = await intake('names-odd');
    const answer = await postWebhook(running.url, {
      topic: 'orders/create',
      body: orderBody('5551235', { not: 'a name' }),
    });
    expect(answer.status).toBe(200);
    const [job] = await allJobs(running.queues.createShipment);
    expect(job?.name).toBe('order 5551235 create shipment');
  });

  it("reconciliation names the job from the order it listed; a mark names the order's id", async () => {
    const running = await intake('names-reconcile');
    const store = await startStore({ orders: [{ id: '5551236', name: '#1043' }] });
    closers.push(() => store.close());
    await reconcileOrders(new Date(Date.now() - 30 * 24 * 3600_000), 'reconcile', {
      ...running,
      store: storeClient(store.url),
      eligibility: ELIGIBILITY,
      logger: silentLogger,
    });
    const [job] = await allJobs(running.queues.createShipment);
    expect(job?.id).toBe('order-5551236');
    expect(job?.name).toBe('#1043 create shipment');

    await enqueueMarkOrder(running, '5551236', 'cancelled_after_registration');
    const [mark] = await allJobs(running.queues.markOrder);
    expect(mark?.name).toBe('order 5551236 mark cancelled after registration');
  });
});
