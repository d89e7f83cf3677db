import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.js';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import { ForgetRefusedError, forgetEnvironment } from '../../src/compose/forget-environment.js';
import {
  claimPartnerEnvironment,
  PartnerEnvironmentMismatchError,
} from '../../src/records/partner-environment.js';
import { type RunningService, startService } from '../../src/service.js';
import { waitFor } from '../helpers/intake.js';
import { type StatusBody, startLocalApis, until } from '../helpers/local-service.js';
import {
  createRequests,
  DEMO_EMAIL,
  DEMO_TOKEN,
  FIXTURE,
  metafield,
  shipmentStacks,
  waitForJob,
} from '../helpers/shipment-stack.js';
import { capturingLogger, silentLogger } from '../store/helpers.js';

const start = shipmentStacks();

/** The sandbox's second seeded account: a partner account the first never shared records with. */
const OTHER_TOKEN = 'sbx_other_token';

describe('moving a connector to another partner environment on the same Redis', () => {
  it('refuses until the old records are forgotten, then sends the order to the new environment', async () => {
    const s = await start({ workers: false });
    const id = FIXTURE.paidCopenhagen;
    const first = { apiUrl: s.sandbox.url, token: DEMO_TOKEN };
    const next = { apiUrl: s.sandbox.url, token: OTHER_TOKEN };

    // Onboarding: the connector runs against the first environment and registers the order.
    expect(await claimPartnerEnvironment(s.redis, s.prefix, first)).toMatchObject({
      outcome: 'claimed',
    });
    s.startWorkers();
    await s.parts.enqueueOrder(id, 'orders/paid');
    await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');
    await waitForJob(s.queues.markOrder, `registered-${id}`, 'completed');
    const firstNumber = metafield(s.store, id, 'order_number');

    // The switch: the records say "registered", but not in the new environment.
    await expect(claimPartnerEnvironment(s.redis, s.prefix, next)).rejects.toBeInstanceOf(
      PartnerEnvironmentMismatchError,
    );
    // Forgetting waits until no process works on the prefix any more.
    await expect(forgetEnvironment(s.parts)).rejects.toBeInstanceOf(ForgetRefusedError);
    await s.stopWorkers();
    const { deletedKeys } = await forgetEnvironment(s.parts);
    expect(deletedKeys).toBeGreaterThan(0);
    expect(await s.records.get(id)).toBeNull();

    expect(await claimPartnerEnvironment(s.redis, s.prefix, next)).toMatchObject({
      outcome: 'claimed',
    });
    s.startWorkers({ token: OTHER_TOKEN });
    // What the first reconciliation of the new environment does for the order, still open.
    expect(await s.parts.enqueueOrder(id, 'reconcile')).toBe('queued');
    const job = await waitForJob(s.queues.createShipment, orderJobId(id), 'completed');

    expect(job.returnvalue).toMatchObject({ outcome: 'registered', created: true });
    expect(createRequests(s.sandbox, OTHER_TOKEN).map((r) => r.status)).toEqual([201]);
    const secondNumber = (await s.records.get(id))?.orderNumber;
    expect(secondNumber).not.toBe(firstNumber);
    // The order in Shopify now carries the new environment's order number.
    await waitForJob(s.queues.markOrder, `registered-${id}`, 'completed');
    expect(metafield(s.store, id, 'order_number')).toBe(secondNumber);
  });
});

/**
 * The provider revokes and reissues an exposed token the same day. The connector is restarted
 * with the new one, on the same PARTNER_API_URL, as `connector start` runs it.
 */
describe('restarting with a new partner token on the same address', () => {
  /** A connector that has registered one order with its first token, and its parts. */
  async function connectorWithARegisteredOrder() {
    const apis = await startLocalApis({ name: 'token-reissue' });
    const firstToken = (apis.env as Record<string, string>).PARTNER_API_TOKEN!;
    const closers: (() => Promise<unknown>)[] = [];
    const start = async (token: string, logger = silentLogger) => {
      const service = await startService(loadConfig({ ...apis.env, PARTNER_API_TOKEN: token }), {
        logger,
      });
      closers.push(() => service.close());
      return service;
    };
    const first = await start(firstToken);
    const registered = async (orderId: string) =>
      (await apis.store.order(orderId))?.tags.includes('shipment-registered') ?? false;
    const { order } = await apis.store.createOrder(
      { lineItems: [{ title: 'Mug', weight: { value: 400, unit: 'GRAMS' } }] },
      { webhookUrl: `${first.url}/webhooks/shopify` },
    );
    await until(() => registered(order.id), 'the first order to be registered');
    return {
      ...apis,
      first,
      firstOrderId: order.id,
      firstToken,
      start,
      registered,
      close: async () => {
        for (const close of closers.splice(0).reverse()) await close();
      },
    };
  }

  const lookups = (
    c: { sandbox: { requests: readonly { method: string; path: string; status: number }[] } },
    reference: string,
  ) =>
    c.sandbox.requests
      .filter((r) => r.method === 'GET' && r.path === `/api/v1/shipments/${reference}`)
      .map((r) => r.status);

  it('adopts a reissued token of the same account by itself and registers the orders queued meanwhile', async () => {
    const c = await connectorWithARegisteredOrder();
    try {
      // The provider reissues the token; the old one is refused from now on.
      const reissued = c.sandbox.issueToken(DEMO_EMAIL, 'reissued');
      c.sandbox.revokeToken(c.firstToken);
      const { order: waiting } = await c.store.createOrder(
        { lineItems: [{ title: 'Blanket', weight: { value: 900, unit: 'GRAMS' } }] },
        { webhookUrl: `${c.first.url}/webhooks/shopify` },
      );
      const status = async (service: RunningService) =>
        (await fetch(`${service.url}/status`)).json() as Promise<StatusBody>;
      await until(
        async () => (await status(c.first)).partner.status === 'token_refused',
        'the old token to be refused',
      );
      await c.close();

      // The restart with the new token: no command typed.
      const { logger, lines } = capturingLogger('info');
      await c.start(reissued, logger);

      // The refusal held the queue back for a few seconds (AUTH_RECHECK_MS): waited out, not slept.
      await waitFor(() => c.registered(waiting.id), {
        timeoutMs: 30_000,
        what: 'the order queued meanwhile to be registered',
      });
      expect(lookups(c, c.firstOrderId)).toEqual([200]);
      expect(lines()).toContain(
        `it reads shipment ${c.firstOrderId}, registered with the old one, so it is the same account`,
      );
      expect(
        c.sandbox
          .shipments(DEMO_EMAIL)
          .map((shipment) => shipment.reference)
          .sort(),
      ).toEqual([c.firstOrderId, waiting.id].sort());
    } finally {
      await c.close();
    }
  });

  it("refuses a token of another account, which cannot read this connector's shipment, naming the choices", async () => {
    const c = await connectorWithARegisteredOrder();
    try {
      await c.close();

      const error = await c.start(OTHER_TOKEN).catch((e) => e);

      expect(error).toBeInstanceOf(PartnerEnvironmentMismatchError);
      expect(lookups(c, c.firstOrderId)).toEqual([404]);
      expect(error.message).toContain(
        `the provider answers 404 to it for shipment ${c.firstOrderId}, registered here with the old token: it belongs to another account`,
      );
      expect(error.message).toContain('set a new QUEUE_PREFIX');
      expect(error.message).toContain('connector environment forget --yes');
      expect(error.message).toContain('connector environment adopt-token');
      expect(c.sandbox.shipments('other@sandbox.local')).toEqual([]);
    } finally {
      await c.close();
    }
  });
});
