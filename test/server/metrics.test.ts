import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { orderJobId } from '../../src/compose/parts.js';
import { Counters } from '../../src/metrics/counters.js';
import { postWebhook } from '../helpers/intake.js';
import { instruments, type MetricsServer, startMetricsServer } from '../helpers/metrics.js';
import { testRedis } from '../helpers/redis.js';
import {
  eventually,
  FIXTURE,
  type ShipmentStack,
  shipmentStacks,
  waitForJob,
} from '../helpers/shipment-stack.js';

const startStack = shipmentStacks();
let server: MetricsServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  nock.cleanAll();
});

/** A stack whose clients report to the metrics, and the server that serves them. */
async function observedStack(options: { token?: string } = {}) {
  const kit = instruments();
  const stack = await startStack({
    workers: false,
    storeClient: { onRequest: kit.requests.storeRequest, sleep: async () => {} },
  });
  server = await startMetricsServer(stack, { ...options, instruments: kit });
  return { stack, server };
}

function startWorkers(stack: ShipmentStack, metricsServer: MetricsServer) {
  stack.startWorkers({ ports: { partner: metricsServer.partnerSide.partner } });
}

describe('/metrics', () => {
  it('counts jobs, orders and requests as orders are registered and refused', async () => {
    const { stack, server } = await observedStack();
    const before = await server.scrape();
    expect(
      before.value('connector_jobs_total', { queue: 'create-shipment', outcome: 'completed' }),
    ).toBe(0);
    expect(before.value('connector_shipments_registered_total')).toBe(0);
    expect(before.value('connector_partner_budget_remaining')).toBe(60);

    startWorkers(stack, server);
    await stack.parts.enqueueOrder(FIXTURE.paidCopenhagen, 'test');
    await stack.parts.enqueueOrder(FIXTURE.missingPostalCodeOdense, 'test');
    await waitForJob(stack.queues.createShipment, orderJobId(FIXTURE.paidCopenhagen), 'completed');
    await waitForJob(
      stack.queues.createShipment,
      orderJobId(FIXTURE.missingPostalCodeOdense),
      'failed',
    );

    const after = await server.scrape();
    const registration = { queue: 'create-shipment' };
    expect(after.value('connector_jobs_total', { ...registration, outcome: 'completed' })).toBe(1);
    expect(after.value('connector_jobs_total', { ...registration, outcome: 'failed' })).toBe(1);
    expect(after.value('connector_queue_jobs', { ...registration, state: 'failed' })).toBe(1);
    expect(after.value('connector_queue_jobs', { ...registration, state: 'waiting' })).toBe(0);
    expect(
      after.value('connector_orders_needing_attention', { reason: 'registration_failed' }),
    ).toBe(1);
    expect(after.value('connector_orders_waiting')).toBe(0);
    expect(after.value('connector_shipments_registered_total')).toBe(1);
    expect(after.value('connector_orders_refused_total')).toBe(1);
    expect(
      after.value('connector_partner_requests_total', {
        endpoint: 'POST /shipments',
        status: '201',
      }),
    ).toBe(1);
    expect(after.value('connector_partner_budget_sent_total')).toBe(1);
    expect(after.value('connector_partner_budget_remaining')).toBe(59);
    // The fake store asks GetOrder's requested cost (264: 24 line items, 2 fulfillment orders) up front, and charges in
    // the end only what it returned.
    const gets = after.value('connector_shopify_requests_total', {
      operation: 'GetOrder',
      outcome: 'ok',
    });
    expect(gets).toBeGreaterThanOrEqual(2);
    expect(
      after.value('connector_shopify_query_cost_requested_total', { operation: 'GetOrder' }),
    ).toBe(264 * (gets ?? 0));
    const actual = after.value('connector_shopify_query_cost_actual_total', {
      operation: 'GetOrder',
    });
    expect(actual).toBeGreaterThan(0);
    expect(actual).toBeLessThan(264 * (gets ?? 0));
    expect(after.value('connector_shopify_cost_maximum_points')).toBe(2000);
  });

  it('shows orders waiting, and the queues paused while the partner token is refused', async () => {
    const { stack, server } = await observedStack();
    await stack.parts.enqueueOrder(FIXTURE.paidCopenhagen, 'test');
    await stack.parts.enqueueOrder(FIXTURE.documentAarhus, 'test');
    await stack.authGuard.tokenRefused();

    const scrape = await server.scrape();

    expect(scrape.value('connector_orders_waiting')).toBe(2);
    expect(scrape.value('connector_orders_waiting_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(scrape.value('connector_orders_held_oldest_age_seconds')).toBe(0);
    const began = new Date(Date.now() - 3 * 3600_000);
    await stack.records.markSkipped('5569001', 'held', 'Waiting: …', began);
    await stack.records.markWaiting('5569001', new Date(), began);
    const held = (await server.scrape()).value('connector_orders_held_oldest_age_seconds');
    expect(held).toBeGreaterThanOrEqual(3 * 3600);
    expect(held).toBeLessThan(3 * 3600 + 60);
    expect(scrape.value('connector_partner_token_refused')).toBe(1);
    expect(scrape.value('connector_queue_paused', { queue: 'create-shipment' })).toBe(1);
    expect(scrape.value('connector_queue_paused', { queue: 'mark-order' })).toBe(0);

    await stack.authGuard.tokenAccepted();
    const resumed = await server.scrape();
    expect(resumed.value('connector_partner_token_refused')).toBe(0);
    expect(resumed.value('connector_queue_paused', { queue: 'create-shipment' })).toBe(0);
  });

  it("counts Shopify's throttling and the wait, and the bucket the last answer reported", async () => {
    const { stack, server } = await observedStack();
    stack.store.throttleNext(1, { currentlyAvailable: 4, restoreRate: 100 });

    await stack.storeClient.getOrder(FIXTURE.paidCopenhagen);

    const scrape = await server.scrape();
    const getOrder = { operation: 'GetOrder' };
    expect(
      scrape.value('connector_shopify_requests_total', { ...getOrder, outcome: 'throttled' }),
    ).toBe(1);
    expect(scrape.value('connector_shopify_requests_total', { ...getOrder, outcome: 'ok' })).toBe(
      1,
    );
    // 10 points requested, 4 available, 100 points/s: 60 ms.
    expect(scrape.value('connector_shopify_throttle_wait_seconds_total', getOrder)).toBeCloseTo(
      0.06,
    );
    // Only the query that ran is charged.
    expect(scrape.value('connector_shopify_query_cost_requested_total', getOrder)).toBe(264);
    expect(scrape.value('connector_shopify_cost_available_points')).toBe(1990);
  });

  it('counts partner answers by status, 429s and the budget waits they cause', async () => {
    const kit = instruments();
    const stack = await startStack({ workers: false });
    server = await startMetricsServer(stack, {
      instruments: kit,
      partnerApiUrl: 'https://partner.example.com/api/v1',
    });
    const { partner } = server.partnerSide;
    const provider = nock('https://partner.example.com');
    provider
      .get('/api/v1/shipments/5550001')
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    provider.get('/api/v1/shipments/5550002').reply(429, {}, { 'retry-after': '30' });

    await expect(partner.getShipment('5550001')).rejects.toThrow(/could not be reached/);
    await expect(partner.getShipment('5550002')).rejects.toThrow(/rate limit/);
    // Held back by the 429's block: never sent.
    await expect(partner.getShipment('5550003')).rejects.toThrow();

    const scrape = await server.scrape();
    const lookUp = 'GET /shipments/{reference}';
    expect(
      scrape.value('connector_partner_requests_total', { endpoint: lookUp, status: 'none' }),
    ).toBe(1);
    expect(
      scrape.value('connector_partner_requests_total', { endpoint: lookUp, status: '429' }),
    ).toBe(1);
    expect(scrape.value('connector_partner_rate_limited_total')).toBe(1);
    const left = scrape.value('connector_partner_rate_limited_seconds') ?? 0;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(30);
    expect(scrape.value('connector_partner_budget_waits_total')).toBe(1);
    expect(scrape.value('connector_partner_budget_wait_seconds_total')).toBeGreaterThan(0);
    expect(provider.isDone()).toBe(true);
  });

  it('reads the Redis counters at each scrape, whichever process added to them', async () => {
    const { stack, server } = await observedStack();
    const otherProcess = testRedis();
    try {
      await new Counters(otherProcess, stack.prefix).increment('order_marks_failed', 2);
      const forged = await postWebhook(server.url, {
        topic: 'orders/create',
        body: '{"id":1}',
        secret: 'not-the-secret',
      });
      expect(forged.status).toBe(401);

      await eventually(async () => {
        const scrape = await server.scrape();
        expect(scrape.value('connector_order_marks_failed_total')).toBe(2);
        expect(scrape.value('connector_webhooks_rejected_total')).toBe(1);
      });
    } finally {
      await otherProcess.quit();
    }
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  it('asks for the bearer token, and answers with it', async () => {
    const { server } = await observedStack({ token: 'a-scrape-token-of-some-length' });

    const bare = await fetch(`${server.url}/metrics`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const wrong = await fetch(`${server.url}/metrics`, {
      headers: { authorization: 'Bearer another-token-entirely' },
    });
    expect(wrong.status).toBe(401);

    const scrape = await server.scrape({ authorization: 'Bearer a-scrape-token-of-some-length' });
    expect(scrape.declared.has('connector_orders_waiting')).toBe(true);
  });

  it('is open without one, in the text format Prometheus reads', async () => {
    const { server } = await observedStack();
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  });
});
