import type { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../jobs/catalog.js';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import { startWorkers } from '../../src/compose/workers.js';
import type { RequestLogEntry } from '../../src/sandbox/partner/index.js';
import {
  createRequests,
  DEMO_EMAIL,
  DEMO_TOKEN,
  FIXTURE,
  type ShipmentStack,
  shipmentStacks,
  shipmentsWithReference,
  waitForJob,
  waitUntil,
} from '../helpers/shipment-stack.js';

const start = shipmentStacks();

/** Whether each queue of a job in the catalog that calls the partner is paused. */
function partnerQueuesPaused(s: ShipmentStack) {
  return Promise.all(JOBS.filter((j) => j.callsPartner).map((j) => s.parts.queueOf(j).isPaused()));
}

describe('the provider refuses the token (401)', () => {
  it('pauses the partner queues with the job waiting, attempts intact, and resumes once a valid token works', async () => {
    const s = await start();
    const id = FIXTURE.paidCopenhagen;
    const jobId = orderJobId(id);
    s.sandbox.revokeToken(DEMO_TOKEN);

    await s.parts.enqueueOrder(id, 'test');
    await waitUntil(() => s.authGuard.refusedSince(), { what: 'the token to be marked refused' });
    const waiting = await waitForJob(s.queues.createShipment, jobId, 'waiting');

    expect(waiting.attemptsMade).toBe(0);
    expect(await partnerQueuesPaused(s)).toEqual(
      JOBS.filter((j) => j.callsPartner).map(() => true),
    );
    // Writing to Shopify does not need the partner token.
    expect(await s.queues.markOrder.isPaused()).toBe(false);
    expect(createRequests(s.sandbox).map((r) => r.status)).toEqual([401]);
    expect((await s.counters.read()).partner_auth_failures).toBe(1);
    // Not the order's fault: no failure recorded against it (only that a request left),
    // nothing written to it.
    expect((await s.records.get(id))?.state).toBe('sending');
    expect(s.store.order(id)?.tags).not.toContain('shipment-error');

    // The refused token still fails the probe: the queues stay paused.
    expect(await s.authGuard.probe(s.partner)).toBe(false);
    expect(await s.queues.createShipment.isPaused()).toBe(true);

    // The admin configures a new token and restarts the workers; the service probes at start.
    const token = s.sandbox.issueToken(DEMO_EMAIL, 'flow-test');
    await s.stopWorkers();
    s.startWorkers({ token });
    expect(await s.authGuard.probe(s.partner)).toBe(true);

    expect(await s.authGuard.refusedSince()).toBeNull();
    expect(await partnerQueuesPaused(s)).toEqual(
      JOBS.filter((j) => j.callsPartner).map(() => false),
    );
    const job = await waitForJob(s.queues.createShipment, jobId, 'completed');
    expect(job.attemptsMade).toBe(1);
    expect(job.returnvalue).toMatchObject({ outcome: 'registered', created: true });
    expect(createRequests(s.sandbox, token).map((r) => r.status)).toEqual([201]);
    expect(shipmentsWithReference(s.sandbox, id)).toHaveLength(1);
  });
});

/**
 * The Retry-After the sandbox sent with a 429, worked out from its request log the way the
 * sandbox's limiter did (src/sandbox/partner/rate-limit.ts): whole seconds until a slot frees.
 */
function retryAfterMsOf(
  refusal: RequestLogEntry,
  log: readonly RequestLogEntry[],
  limit: number,
  windowMs: number,
): number {
  const admitted = log
    .filter((r) => r.status !== 429 && r.status !== 401)
    .map((r) => r.at)
    .filter((at) => at <= refusal.at && at > refusal.at - windowMs)
    .sort((a, b) => a - b);
  const freeingAt = admitted[admitted.length - limit]! + windowMs;
  return Math.max(1, Math.ceil((freeingAt - refusal.at) / 1000)) * 1000;
}

describe('the provider answers 429', () => {
  it('waits out Retry-After without failing the job or spending an attempt', async () => {
    // The connector believes in 10 requests per 2 s; the provider allows 1.
    const s = await start({ budget: { limit: 10, windowMs: 2_000 } });
    s.sandbox.setRateLimit(1, 2_000);
    const ids = [FIXTURE.paidCopenhagen, FIXTURE.documentAarhus];

    await Promise.all(ids.map((id) => s.parts.enqueueOrder(id, 'test')));
    const jobs = await Promise.all(
      ids.map((id) => waitForJob(s.queues.createShipment, orderJobId(id), 'completed')),
    );

    const log = s.sandbox.requests.filter((r) => r.token === DEMO_TOKEN);
    const refusals = log.filter((r) => r.status === 429);
    expect(refusals.length).toBeGreaterThanOrEqual(1);
    for (const refusal of refusals) {
      const retryAfterMs = retryAfterMsOf(refusal, log, 1, 2_000);
      const early = log.filter((r) => r.at > refusal.at && r.at < refusal.at + retryAfterMs);
      expect(early).toEqual([]);
    }
    expect((await s.budget.stats()).rateLimited).toBe(refusals.length);

    // Every job finished on its first counted attempt; the one sent back by the 429 ran twice.
    for (const job of jobs) {
      expect(job.returnvalue).toMatchObject({ outcome: 'registered', created: true });
      expect(job.attemptsMade).toBe(1);
    }
    expect(jobs.some((job) => job.attemptsStarted >= 2)).toBe(true);
    expect(await s.queues.createShipment.getFailedCount()).toBe(0);
    for (const id of ids) expect(shipmentsWithReference(s.sandbox, id)).toHaveLength(1);
  });
});

describe('the request budget is spent when a create is due', () => {
  it('holds the job back without marking the order as sent, then registers it', async () => {
    const s = await start({ workers: false, budget: { limit: 1, windowMs: 1_500 } });
    const id = FIXTURE.paidCopenhagen;
    // Another process took the window's only request a moment ago.
    expect((await s.budget.take('create')).granted).toBe(true);

    await s.parts.enqueueOrder(id, 'test');
    s.startWorkers();
    await waitUntil(async () => (await s.budget.stats()).denied >= 1, {
      what: 'the budget to hold the create back',
    });

    // Nothing left: the order is not "sending", and no later sighting needs to ask the provider.
    expect(createRequests(s.sandbox)).toEqual([]);
    const held = await s.records.get(id);
    expect(held?.state).not.toBe('sending');
    expect(held?.sentAt).toBeUndefined();

    const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');
    expect(job.returnvalue).toMatchObject({ outcome: 'registered', created: true });
    expect(createRequests(s.sandbox).map((r) => r.status)).toEqual([201]);
    expect((await s.records.get(id))?.sentAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });
});

describe('a create that has to wait for the partner budget', () => {
  it('does not read the order from Shopify while the budget is spent, and reads it once after', async () => {
    const s = await start({ workers: false, budget: { limit: 1, windowMs: 1_500 } });
    const id = FIXTURE.paidCopenhagen;
    const reads: string[] = [];
    const store = Object.create(s.storeClient) as typeof s.storeClient;
    store.getOrder = (orderId) => {
      reads.push(orderId);
      return s.storeClient.getOrder(orderId);
    };
    // Another process has just sent the one request the window allows.
    expect((await s.budget.take('create')).granted).toBe(true);
    s.startWorkers({ ports: { store } });

    await s.parts.enqueueOrder(id, 'orders/create');
    await waitUntil(async () => (await s.budget.stats()).denied > 0, {
      what: 'the job to meet the spent budget',
    });
    expect(reads).toEqual([]);

    const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');
    expect(job.returnvalue).toMatchObject({ outcome: 'registered', created: true });
    expect(reads).toEqual([id]);
    expect(shipmentsWithReference(s.sandbox, id)).toHaveLength(1);
  });

  it('reads each order once when three connectors work one backlog through the shared budget', async () => {
    // Each connector's create workers outnumber the budget's requests a window, so most runs
    // meet a spent budget; none of them may have read its order first.
    const concurrency = { createShipment: 6 };
    // A window long enough that a read on a busy machine does not outlast the place taken for it
    // (the place would then be taken anew, and might be refused after the read).
    const s = await start({ workers: false, budget: { limit: 4, windowMs: 1_000 }, concurrency });
    const ids = Array.from({ length: 16 }, (_, i) => String(7_700_001 + i));
    for (const id of ids) s.store.createOrder({ id }, { sendWebhook: false });
    await Promise.all(ids.map((id) => s.parts.enqueueOrder(id, 'test')));

    // Three connectors: each its own partner client on the one token's budget, as processes are.
    s.startWorkers();
    const others: Worker[] = [1, 2].flatMap(() =>
      startWorkers(
        { ...s.context, partner: s.partnerFor(DEMO_TOKEN).partner },
        { connection: s.redis, concurrency },
      ),
    );
    try {
      await waitUntil(
        async () => (await s.queues.createShipment.getCompletedCount()) === ids.length,
        { what: 'every order registered', timeoutMs: 60_000 },
      );
    } finally {
      await Promise.all(others.map((worker) => worker.close()));
    }

    expect((await s.budget.stats()).denied).toBeGreaterThan(0);
    const reads = s.store.requests.filter((r) => r.operationName === 'GetOrder');
    expect(reads).toHaveLength(ids.length);
    for (const id of ids) {
      const job = await s.queues.createShipment.getJob(orderJobId(id));
      expect(job?.returnvalue).toMatchObject({ outcome: 'registered', created: true });
      expect(shipmentsWithReference(s.sandbox, id)).toHaveLength(1);
    }
    expect(createRequests(s.sandbox).map((r) => r.status)).toEqual(ids.map(() => 201));
  });
});
