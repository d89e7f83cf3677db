import { describe, expect, it } from 'vitest';
import { orderJobId } from '../../src/compose/parts.js';
import { runConnector } from '../helpers/connector-cli.js';
import { REDIS_URL } from '../helpers/redis.js';
import {
  FIXTURE,
  SHOP,
  type ShipmentStack,
  STORE_TOKEN,
  shipmentStacks,
  WEBHOOK_SECRET,
  waitForJob,
} from '../helpers/shipment-stack.js';
import { runSync, settled } from '../helpers/status-sync.js';

const stackFor = shipmentStacks();

/** Only what reading the records needs. */
const recordsEnv = (stack: ShipmentStack) => ({ REDIS_URL, QUEUE_PREFIX: stack.prefix });
const shopifyEnv = (stack: ShipmentStack) => ({
  SHOPIFY_SHOP: SHOP,
  SHOPIFY_ACCESS_TOKEN: STORE_TOKEN,
  SHOPIFY_WEBHOOK_SECRET: WEBHOOK_SECRET,
  SHOPIFY_ADMIN_API_URL: stack.store.url,
});
/** A token of its own: the budget the command draws on is keyed by token, shared by every run. */
const partnerEnv = (stack: ShipmentStack) => ({
  PARTNER_API_URL: stack.sandbox.url,
  PARTNER_API_TOKEN: stack.sandbox.issueToken('demo@sandbox.local', `status-test-${stack.prefix}`),
});

async function registered(stack: ShipmentStack, orderId: string) {
  await stack.parts.enqueueOrder(orderId, 'orders/paid');
  await waitForJob(stack.queues.createShipment, orderJobId(orderId), 'completed');
  await waitForJob(stack.queues.markOrder, `registered-${orderId}`, 'completed');
}

describe('connector status', () => {
  it('finds an order by name and shows its state and its jobs in every queue (JSON)', async () => {
    const stack = await stackFor();
    await registered(stack, FIXTURE.paidCopenhagen);

    const run = await runConnector(['status', '#1001', '--json'], {
      ...recordsEnv(stack),
      ...shopifyEnv(stack),
    });
    expect(run.stderr).toBe('');
    const status = JSON.parse(run.stdout);
    expect(status).toMatchObject({
      orderId: FIXTURE.paidCopenhagen,
      name: '#1001',
      record: { state: 'registered', orderNumber: expect.any(String) },
      partnerQueues: { paused: [], tokenRefusedSince: null },
    });
    expect(status.jobs.map((j: { queue: string; id: string; state: string }) => j)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          queue: 'create-shipment',
          id: orderJobId(FIXTURE.paidCopenhagen),
          state: 'completed',
        }),
        expect.objectContaining({
          queue: 'mark-order',
          id: `registered-${FIXTURE.paidCopenhagen}`,
          state: 'completed',
        }),
      ]),
    );
    expect(status.timeline).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'provider-request', method: 'POST', status: 201 }),
      ]),
    );

    // The name without its # (no shell comment to quote around), in words, with its timeline.
    const bare = await runConnector(['status', '1001'], {
      ...recordsEnv(stack),
      ...shopifyEnv(stack),
    });
    expect(bare.stderr).toBe('');
    expect(bare.stdout).toContain(`Order ${FIXTURE.paidCopenhagen} (#1001)`);
    expect(bare.stdout).toContain('Timeline (oldest first, times in UTC):');
    expect(bare.stdout).toMatch(/provider: POST \/shipments → 201/);
  }, 60_000);

  it('reads the records with REDIS_URL and QUEUE_PREFIX alone; --live says which partner settings it lacks, and asks with them', async () => {
    const stack = await stackFor();
    await registered(stack, FIXTURE.paidCopenhagen);

    const plain = await runConnector(['status', FIXTURE.paidCopenhagen], recordsEnv(stack));
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('State: registered');
    expect(plain.stdout).toContain('Eligibility: eligible');

    const lacking = await runConnector(
      ['status', FIXTURE.paidCopenhagen, '--live'],
      recordsEnv(stack),
    );
    expect(lacking.code).toBe(78);
    expect(lacking.stderr).toContain('--live asks the provider and needs the partner settings');
    expect(lacking.stderr).toContain('PARTNER_API_URL is required');
    expect(lacking.stderr).toContain('PARTNER_API_TOKEN is required');

    const requestsBefore = stack.sandbox.requests.length;
    const live = await runConnector(['status', FIXTURE.paidCopenhagen, '--live'], {
      ...recordsEnv(stack),
      ...partnerEnv(stack),
    });
    expect(live.code).toBe(0);
    expect(live.stdout).toContain(
      'Asked the provider (GET /shipments/{reference}, one request from the shared budget)',
    );
    expect(live.stdout).toMatch(/Order number \S+, status \w+/);
    expect(stack.sandbox.requests.slice(requestsBefore)).toMatchObject([
      {
        method: 'GET',
        path: expect.stringMatching(new RegExp(`/shipments/${FIXTURE.paidCopenhagen}$`)),
      },
    ]);
  }, 60_000);

  it('says a refused order is refused, with the last error, and that the provider queues are paused and why', async () => {
    const stack = await stackFor();
    await stack.parts.enqueueOrder(FIXTURE.missingPostalCodeOdense, 'orders/paid');
    await waitForJob(
      stack.queues.createShipment,
      orderJobId(FIXTURE.missingPostalCodeOdense),
      'failed',
    );
    await stack.authGuard.tokenRefused();

    const run = await runConnector(['status', FIXTURE.missingPostalCodeOdense], recordsEnv(stack));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('State: refused');
    expect(run.stdout).toMatch(/Last error: .*postal/s);
    expect(run.stdout).toContain(
      `create-shipment/${orderJobId(FIXTURE.missingPostalCodeOdense)}: failed`,
    );
    expect(run.stdout).toMatch(
      /PAUSED: the provider refused the token \(401\) at \S+; create-shipment, sync-shipments wait/,
    );
  }, 60_000);

  it('exits 66 for a name no order has, and 78 naming the Shopify settings a name needs', async () => {
    const stack = await stackFor({ workers: false });
    const none = await runConnector(['status', '#9999'], {
      ...recordsEnv(stack),
      ...shopifyEnv(stack),
    });
    expect(none.stderr).toContain('No order named #9999 in the store.');
    expect(none.code).toBe(66);

    const lacking = await runConnector(['status', '#1001'], recordsEnv(stack));
    expect(lacking.stderr).toContain('Finding order #1001 by its name needs the Shopify settings');
    expect(lacking.stderr).toContain('SHOPIFY_SHOP is required');
    expect(lacking.code).toBe(78);

    const notAnOrder = await runConnector(['status', 'abc'], recordsEnv(stack));
    expect(notAnOrder.code).toBe(2);
  }, 60_000);

  it("shows the status sync's view: provider status and label, carrier and tracking, and what Shopify has been given", async () => {
    const stack = await stackFor();
    const id = FIXTURE.paidCopenhagen;
    await registered(stack, id);

    const before = await runConnector(['status', id], recordsEnv(stack));
    // Followed from its registration on.
    expect(before.stdout).toMatch(/Provider status: pending \(Registered\)/);
    expect(before.stdout).toContain('Carrier and tracking number: none yet');

    stack.sandbox.advance(id, 'shipped', { carrier: 'Bring', trackingNumber: '70701234567' });
    await runSync(stack);
    await settled(stack);

    const run = await runConnector(['status', id], recordsEnv(stack));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Provider status: shipped \(.+\), changed \S+/);
    expect(run.stdout).toContain('Carrier and tracking number: Bring 70701234567');
    expect(run.stdout).toContain(
      'Shopify has: no status metafields (the order shows the status itself, or they are queued); fulfilled with tracking number 70701234567',
    );
    expect(run.stdout).toMatch(/fulfil-shipment\/fulfil-\d+-[0-9a-f]+: completed/);

    const json = JSON.parse(
      (await runConnector(['status', id, '--json'], recordsEnv(stack))).stdout,
    );
    expect(json.shipment).toMatchObject({
      status: 'shipped',
      carrier: 'Bring',
      trackingNumber: '70701234567',
      fulfilledNumber: '70701234567',
      // The fulfillment shows it shipped: no status metafields.
      newestStatusWritten: false,
    });
  }, 60_000);
});
