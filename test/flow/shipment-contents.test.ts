import { afterEach, describe, expect, it } from 'vitest';
import { decodeSentUnits } from '../../src/domain/shipment-contents.js';
import type { PackageLine } from '../../src/domain/shipment-contract.js';
import { PartnerBudget } from '../../src/queue/partner-budget.js';
import { StoreHealth } from '../../src/records/store-health.js';
import type { FakeOrderInput } from '../../src/sandbox/store/index.js';
import { buildServer } from '../../src/server/app.js';
import { createWebhookVerifier } from '../../src/store/webhooks.js';
import {
  SHOP,
  type ShipmentStack,
  type ShipmentStackOptions,
  shipmentStacks,
  shipmentsWithReference,
  WEBHOOK_SECRET,
  waitUntil,
} from '../helpers/shipment-stack.js';
import { providerClock, runSync, settled } from '../helpers/status-sync.js';

/**
 * What goes into a shipment, order shape by order shape, through the whole flow: Shopify's
 * webhook reaches the connector over HTTP, the provider sandbox gets the create request, ships
 * and delivers, and the fake store gets the fulfillment. Each case states the units the provider
 * is asked to ship; the fulfillment must cover exactly those, never a unit it was not asked for.
 */

const start = shipmentStacks();
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

type Units = Record<string, number>;

interface Flow {
  s: ShipmentStack;
  /** Where the fake store sends its webhooks: the connector's own route. */
  webhookUrl: string;
  tick(): void;
}

async function flow(options: ShipmentStackOptions & { scopes?: string[] } = {}): Promise<Flow> {
  const time = providerClock();
  const s = await start({ ...options, sandbox: { clock: time.clock } });
  if (options.scopes) s.store.setAccessScopes(options.scopes);
  const app = await buildServer({
    verify: createWebhookVerifier({ webhookSecret: WEBHOOK_SECRET, shop: SHOP }),
    redis: s.redis,
    prefix: s.prefix,
    counters: s.counters,
    acceptDelivery: (event, deliveryId) => s.parts.acceptDelivery(event, deliveryId, s.redis),
    budget: new PartnerBudget(s.redis, {
      token: 'contents-test',
      limit: 60,
      windowMs: 60_000,
      keyPrefix: `${s.prefix}:webhook-budget`,
    }),
    storeHealth: new StoreHealth(s.redis, s.prefix),
    logger: s.logger,
    board: { queues: Object.values(s.queues), login: undefined },
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  closing.push(() => app.close());
  return { s, webhookUrl: `${address}/webhooks/shopify`, tick: time.tick };
}

let nextId = 8_600_000;

/** The order is placed in Shopify, and its webhook reaches the connector. */
async function place(f: Flow, order: FakeOrderInput): Promise<string> {
  nextId += 1;
  const id = String(nextId);
  await f.s.store.createOrder({ ...order, id }, { webhookUrl: f.webhookUrl });
  return id;
}

/** The connector's record of the order once its create job has settled as `state`. */
async function settledAs(f: Flow, id: string, state: 'registered' | 'skipped') {
  return waitUntil(
    async () => {
      const record = await f.s.records.get(id);
      return record?.state === state ? record : null;
    },
    { what: `order ${id} to be ${state}`, timeoutMs: 20_000 },
  );
}

/** The provider prepares the parcel, ships it, then delivers it; the connector follows. */
async function shipAndDeliver(f: Flow, id: string) {
  f.tick();
  f.s.sandbox.advance(id, 'processing');
  await runSync(f.s);
  await settled(f.s);
  f.tick();
  f.s.sandbox.advance(id, 'shipped', { carrier: 'PostNord', trackingNumber: `TN${id}` });
  await runSync(f.s);
  await settled(f.s);
  f.tick();
  f.s.sandbox.advance(id, 'delivered');
  await runSync(f.s);
  await settled(f.s);
}

/** What the connector's create request asked the provider to ship, by line title. */
async function askedFor(f: Flow, id: string): Promise<Units> {
  const record = await f.s.records.get(id);
  const sent = decodeSentUnits(record?.sentUnits) ?? new Map<string, number>();
  const order = f.s.store.order(id)!;
  const units: Units = {};
  for (const [lineItemGid, quantity] of sent) {
    const item = order.lineItems.find((l) => lineItemGid.endsWith(`/${l.id}`))!;
    units[item.title] = quantity;
  }
  return units;
}

function packagesSent(f: Flow, id: string): PackageLine[] {
  const [shipment, ...more] = shipmentsWithReference(f.s.sandbox, id);
  expect(more).toEqual([]);
  return shipment!.request.packages as PackageLine[];
}

const totalKg = (packages: readonly PackageLine[]) =>
  Math.round(packages.reduce((sum, p) => sum + p.quantity * p.weight_kg, 0) * 1000) / 1000;

/** The units each fulfillment the connector made covers, by line title. */
function appFulfillments(f: Flow, id: string): Units[] {
  const order = f.s.store.order(id)!;
  const lines = order.fulfillmentOrders.flatMap((fo) => fo.lineItems);
  return order.fulfillments
    .filter((fulfillment) => fulfillment.createdBy === 'app' && fulfillment.status === 'SUCCESS')
    .map((fulfillment) => {
      const units: Units = {};
      for (const { fulfillmentOrderLineItemId, quantity } of fulfillment.lineItems) {
        const line = lines.find((l) => l.id === fulfillmentOrderLineItemId)!;
        const title = order.lineItems.find((item) => item.id === line.lineItemId)!.title;
        units[title] = (units[title] ?? 0) + quantity;
      }
      return units;
    });
}

/**
 * The whole flow for an order that ships: registered with exactly `units`, fulfilled with them
 * (one fulfillment per location), delivered; no fulfillment covers a unit it was not asked for.
 */
async function shipsExactly(f: Flow, id: string, units: Units) {
  await settledAs(f, id, 'registered');
  expect(await askedFor(f, id)).toEqual(units);
  await shipAndDeliver(f, id);
  const made = appFulfillments(f, id);
  const covered: Units = {};
  for (const fulfillment of made) {
    for (const [title, quantity] of Object.entries(fulfillment)) {
      covered[title] = (covered[title] ?? 0) + quantity;
    }
  }
  expect(covered).toEqual(units);
  const order = f.s.store.order(id)!;
  const ours = order.fulfillments.filter((x) => x.createdBy === 'app');
  expect(ours.every((x) => x.trackingInfo[0]?.number === `TN${id}`)).toBe(true);
  expect(ours.every((x) => x.displayStatus === 'DELIVERED')).toBe(true);
  return made;
}

/** An order that must not reach the provider at all. */
async function skippedWith(f: Flow, id: string, reason: RegExp) {
  const record = await settledAs(f, id, 'skipped');
  expect(record.reason).toMatch(reason);
  expect(shipmentsWithReference(f.s.sandbox, id)).toEqual([]);
  expect(appFulfillments(f, id)).toEqual([]);
  return record;
}

const BLANKET = {
  title: 'Wool blanket',
  productType: 'Textiles',
  weight: { value: 800, unit: 'GRAMS' as const },
};
const MUG = { title: 'Ceramic mug', weight: { value: 350, unit: 'GRAMS' as const } };
const THIRD_PARTY_SCOPES = [
  'read_orders',
  'write_orders',
  'read_products',
  'read_locations',
  'read_merchant_managed_fulfillment_orders',
  'write_merchant_managed_fulfillment_orders',
  'read_third_party_fulfillment_orders',
  'read_fulfillments',
  'write_fulfillments',
];

describe('what goes into a shipment, through the whole flow', () => {
  it('plain: the whole order', async () => {
    const f = await flow();
    const id = await place(f, { lineItems: [{ ...MUG, quantity: 2 }] });
    const made = await shipsExactly(f, id, { 'Ceramic mug': 2 });
    expect(made).toHaveLength(1);
    expect(totalKg(packagesSent(f, id))).toBe(0.7);
  });

  it('partly fulfilled by staff before payment: one blanket and the mug, one new fulfillment', async () => {
    const f = await flow();
    const id = await place(f, {
      financialStatus: 'PENDING',
      lineItems: [{ ...BLANKET, quantity: 3 }, MUG],
    });
    await skippedWith(f, id, /Financial status is pending/);
    await f.s.store.fulfil(
      id,
      {
        lines: [{ title: 'Wool blanket', quantity: 2 }],
        tracking: { company: 'GLS', number: 'GLS-STAFF-1' },
      },
      { sendWebhook: false },
    );
    await f.s.store.updateOrder(id, { markPaid: true }, { webhookUrl: f.webhookUrl });

    const made = await shipsExactly(f, id, { 'Wool blanket': 1, 'Ceramic mug': 1 });
    expect(made).toHaveLength(1);
    expect(totalKg(packagesSent(f, id))).toBe(1.15);
    const staff = f.s.store.order(id)!.fulfillments.filter((x) => x.createdBy === 'staff');
    expect(staff.map((x) => x.trackingInfo[0]?.number)).toEqual(['GLS-STAFF-1']);
  });

  it('partly fulfilled by staff after registration: flagged as an edit, staff units never fulfilled again', async () => {
    const f = await flow();
    const id = await place(f, { lineItems: [{ ...BLANKET, quantity: 3 }, MUG] });
    await settledAs(f, id, 'registered');
    expect(await askedFor(f, id)).toEqual({ 'Wool blanket': 3, 'Ceramic mug': 1 });
    await f.s.store.fulfil(
      id,
      { lines: [{ title: 'Wool blanket', quantity: 2 }] },
      { webhookUrl: f.webhookUrl },
    );
    await waitUntil(() => f.s.store.order(id)!.tags.includes('shipment-order-edited'), {
      what: 'the edit after registration to be flagged',
    });
    expect((await f.s.counters.read()).orders_edited_after_registration).toBe(1);

    await shipAndDeliver(f, id);

    expect(appFulfillments(f, id)).toEqual([{ 'Wool blanket': 1, 'Ceramic mug': 1 }]);
  });

  it.each([
    ['without', undefined],
    ['with', THIRD_PARTY_SCOPES],
  ])(
    "a fulfillment service's line and a merchant line, %s read_third_party_fulfillment_orders: the mug only",
    async (_, scopes) => {
      const f = await flow(scopes ? { scopes } : {});
      const id = await place(f, {
        lineItems: [
          {
            title: 'Garden bench',
            quantity: 3,
            location: "Another app's warehouse",
            weight: { value: 2, unit: 'KILOGRAMS' },
          },
          MUG,
        ],
      });
      const made = await shipsExactly(f, id, { 'Ceramic mug': 1 });
      expect(made).toHaveLength(1);
      expect(totalKg(packagesSent(f, id))).toBe(0.35);
      const service = f.s.store
        .order(id)!
        .fulfillmentOrders.find((fo) => fo.lineItems.some((l) => l.remainingQuantity === 3));
      expect(service?.status).toBe('OPEN');
    },
  );

  it('two merchant locations, one collected from: only that location ships, the other is said', async () => {
    const f = await flow({ shipment: { collectFromLocations: ['Shop location'] } });
    const id = await place(f, {
      lineItems: [MUG, { title: 'Vase', location: 'Aarhus warehouse' }],
    });
    await shipsExactly(f, id, { 'Ceramic mug': 1 });
    const { logs } = await f.s.queues.createShipment.getJobLogs(
      (await f.s.queues.createShipment.getJobs(['completed']))[0]!.id!,
    );
    expect(logs).toContain(
      'left out of the shipment: 1 × Vase is at Aarhus warehouse, which the provider does not collect from',
    );
  });

  it('lines removed or reduced by an order edit before payment: only what is still ordered', async () => {
    const f = await flow();
    const id = await place(f, {
      financialStatus: 'PENDING',
      lineItems: [{ ...MUG, quantity: 3 }, { title: 'Vase' }, { title: 'Teapot' }],
    });
    await skippedWith(f, id, /Financial status is pending/);
    await f.s.store.updateOrder(
      id,
      {
        lineQuantities: [
          { title: 'Ceramic mug', quantity: 1 },
          { title: 'Vase', quantity: 0 },
        ],
      },
      { sendWebhook: false },
    );
    await f.s.store.updateOrder(id, { markPaid: true }, { webhookUrl: f.webhookUrl });
    await shipsExactly(f, id, { 'Ceramic mug': 1, Teapot: 1 });
  });

  it('all pickup, without a shipping address: skipped with the reason, never an error', async () => {
    const f = await flow();
    const id = await place(f, {
      shippingAddress: null,
      lineItems: [{ ...MUG, deliveryMethod: 'PICK_UP' }],
    });
    await skippedWith(
      f,
      id,
      /^1 × Ceramic mug is for local pickup; nothing left for the provider to ship\.$/,
    );
  });

  it('mixed pickup and shipping from two locations (three fulfillment orders, read over two pages): the shipped lines, the pickup left open throughout', async () => {
    const f = await flow();
    const id = await place(f, {
      lineItems: [
        MUG,
        { title: 'Vase', deliveryMethod: 'PICK_UP' },
        { title: 'Teapot', location: 'Aarhus warehouse' },
      ],
    });
    const made = await shipsExactly(f, id, { 'Ceramic mug': 1, Teapot: 1 });
    expect(made).toHaveLength(2);
    expect(f.s.store.requests.map((r) => r.operationName)).toContain('GetOrderFulfillmentOrders');
    const pickup = f.s.store
      .order(id)!
      .fulfillmentOrders.find((fo) => fo.deliveryMethod === 'PICK_UP');
    expect(pickup?.status).toBe('OPEN');
  });

  it('a pickup point (a carrier delivery to a parcel shop) ships like any parcel', async () => {
    const f = await flow();
    const id = await place(f, { lineItems: [{ ...MUG, deliveryMethod: 'PICKUP_POINT' }] });
    await shipsExactly(f, id, { 'Ceramic mug': 1 });
  });

  it('digital plus physical: the parcel only; the digital line is not fulfilled with it', async () => {
    const f = await flow();
    const id = await place(f, {
      lineItems: [MUG, { title: 'E-book', requiresShipping: false, weight: null }],
    });
    await shipsExactly(f, id, { 'Ceramic mug': 1 });
  });

  it('everything already fulfilled by staff: skipped, never refused', async () => {
    const f = await flow();
    const id = await place(f, {
      financialStatus: 'PENDING',
      lineItems: [{ ...BLANKET, quantity: 3 }],
    });
    await skippedWith(f, id, /Financial status is pending/);
    await f.s.store.fulfil(id, {}, { sendWebhook: false });
    await f.s.store.updateOrder(id, { markPaid: true }, { webhookUrl: f.webhookUrl });
    await waitUntil(async () => (await f.s.records.get(id))?.skipCode === 'fulfilled', {
      what: 'the fulfilled order to be skipped',
    });
    expect(shipmentsWithReference(f.s.sandbox, id)).toEqual([]);
  });

  it('a heavy line fulfilled by staff and a mug: the mug, not a refusal', async () => {
    const f = await flow();
    const id = await place(f, {
      financialStatus: 'PENDING',
      lineItems: [{ title: 'Anvil', weight: { value: 45, unit: 'KILOGRAMS' } }, MUG],
    });
    await skippedWith(f, id, /Financial status is pending/);
    await f.s.store.fulfil(
      id,
      { lines: [{ title: 'Anvil', quantity: 1 }] },
      { sendWebhook: false },
    );
    await f.s.store.updateOrder(id, { markPaid: true }, { webhookUrl: f.webhookUrl });
    const made = await shipsExactly(f, id, { 'Ceramic mug': 1 });
    expect(made).toHaveLength(1);
  });

  it('on hold: waits with the reason, and is registered once staff release the hold', async () => {
    const f = await flow();
    const id = await place(f, {
      lineItems: [MUG],
      fulfillmentOrders: [{ hold: { reason: 'INCORRECT_ADDRESS' } }],
    });
    const record = await skippedWith(
      f,
      id,
      /^Waiting: 1 × Ceramic mug is on hold \(.+\) in Shopify/,
    );
    expect(record.skipCode).toBe('held');

    const [fo] = f.s.store.order(id)!.fulfillmentOrders;
    await f.s.store.releaseHold(fo!.id, { webhookUrl: f.webhookUrl });
    await shipsExactly(f, id, { 'Ceramic mug': 1 });
  });

  it('scheduled: waits, saying until when', async () => {
    const f = await flow();
    const id = await place(f, {
      lineItems: [MUG],
      fulfillmentOrders: [{ fulfillAt: '2030-01-01T09:00:00Z' }],
    });
    await skippedWith(f, id, /^Waiting: 1 × Ceramic mug is scheduled for 2030-01-01T09:00:00Z/);
  });

  it('a line without weight: the default weight', async () => {
    const f = await flow();
    const id = await place(f, { lineItems: [{ title: 'Print', weight: null }] });
    await shipsExactly(f, id, { Print: 1 });
    expect(totalKg(packagesSent(f, id))).toBe(0.5);
  });

  it('60 distinct line items: every page read, every unit shipped and fulfilled', async () => {
    const f = await flow();
    const lineItems = Array.from({ length: 60 }, (_, i) => ({ ...MUG, title: `Item ${i + 1}` }));
    const id = await place(f, { lineItems });
    await shipsExactly(f, id, Object.fromEntries(lineItems.map((item) => [item.title, 1])));
    expect(totalKg(packagesSent(f, id))).toBe(21);
  });

  it('quantity 150 of one item: package lines of at most 100', async () => {
    const f = await flow();
    const id = await place(f, {
      lineItems: [
        { title: 'Paving stone', quantity: 150, weight: { value: 25, unit: 'KILOGRAMS' } },
      ],
    });
    await shipsExactly(f, id, { 'Paving stone': 150 });
    expect(packagesSent(f, id).map((p) => [p.quantity, p.weight_kg])).toEqual([
      [100, 25],
      [50, 25],
    ]);
  });
});
