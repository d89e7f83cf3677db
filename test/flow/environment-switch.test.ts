import { describe, expect, it } from 'vitest';
import { orderJobId } from '../../jobs/create-shipment/job.js';
import { ForgetRefusedError, forgetEnvironment } from '../../src/compose/forget-environment.js';
import {
  claimPartnerEnvironment,
  PartnerEnvironmentMismatchError,
} from '../../src/records/partner-environment.js';
import {
  createRequests,
  DEMO_TOKEN,
  FIXTURE,
  metafield,
  shipmentStacks,
  waitForJob,
} from '../helpers/shipment-stack.js';

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
