import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { checkOrderEdit } from '../../jobs/check-order-edit/check-order-edit.js';
import {
  registerShipment,
  ShipmentInvalidError,
} from '../../jobs/create-shipment/register-shipment.js';
import { reconcileOrders } from '../../jobs/reconcile-orders/reconcile.js';
import { decodeSentUnits } from '../../src/domain/shipment-contents.js';
import type { PackageLine } from '../../src/domain/shipment-contract.js';
import { PartnerServerError } from '../../src/partner/errors.js';
import type { FakeOrderInput } from '../../src/sandbox/store/index.js';
import { allJobs } from '../helpers/intake.js';
import {
  countingReservations,
  FIXTURE,
  registerDepsOf,
  type ShipmentStack,
  type ShipmentStackOptions,
  shipmentStacks,
  shipmentsWithReference,
  waitUntil,
} from '../helpers/shipment-stack.js';
import { providerClock, runSync, settled } from '../helpers/status-sync.js';
import { serveWebhooks } from '../helpers/webhook-route.js';

/**
 * What goes into a shipment, order shape by order shape, through the whole flow: Shopify's
 * webhook reaches the connector over HTTP, the provider sandbox gets the create request, ships
 * and delivers, and the fake store gets the fulfillment. Each case states the units the provider
 * is asked to ship; the fulfillment must cover exactly those, never a unit it was not asked for.
 */

const start = shipmentStacks();
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  nock.cleanAll();
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
  const s = await start({ ...options, sandbox: { ...options.sandbox, clock: time.clock } });
  if (options.scopes) s.store.setAccessScopes(options.scopes);
  const route = await serveWebhooks(s);
  closing.push(route.close);
  return { s, webhookUrl: route.url, tick: time.tick };
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

/** The units the connector kept as sent (what its fulfilment is bounded by), by line title. */
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

const KG_PER: Record<string, number> = { GRAMS: 0.001, KILOGRAMS: 1 };

/** What `units` weigh, by the fake store's unit weights (the default weight for none). */
function weightOf(f: Flow, id: string, units: Units): number {
  const order = f.s.store.order(id)!;
  let kg = 0;
  for (const [title, quantity] of Object.entries(units)) {
    const { weight } = order.lineItems.find((item) => item.title === title)!;
    const unitKg =
      weight && weight.value > 0
        ? weight.value * KG_PER[weight.unit]!
        : f.s.config.shipment.defaultWeightKg;
    kg += quantity * unitKg;
  }
  return Math.round(kg * 1000) / 1000;
}

/**
 * What the provider received: one create request, for `units` (by their weight, the request
 * naming no lines) and the order's receiver.
 */
function providerReceived(f: Flow, id: string, units: Units) {
  const [shipment, ...more] = shipmentsWithReference(f.s.sandbox, id);
  expect(more).toEqual([]);
  expect(totalKg(shipment!.request.packages as PackageLine[])).toBe(weightOf(f, id, units));
  const address = f.s.store.order(id)!.shippingAddress;
  expect(shipment!.request.receiver).toMatchObject({ name: address?.name });
}

/**
 * The whole flow for an order that ships: registered with exactly `units`, the provider given
 * those, fulfilled with them (one fulfillment per location), delivered; no fulfillment covers a
 * unit it was not asked for.
 */
async function shipsExactly(f: Flow, id: string, units: Units) {
  await settledAs(f, id, 'registered');
  expect(await askedFor(f, id)).toEqual(units);
  providerReceived(f, id, units);
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

/**
 * One reconciliation pass, as if run `minutes` from now; it lists no orders (nothing updated
 * since an hour ahead), so all it does is read again the waiting orders due by then.
 */
function passIn(f: Flow, minutes: number) {
  const now = new Date(Date.now() + minutes * 60_000);
  return reconcileOrders(new Date(Date.now() + 3600_000), 'reconcile', {
    ...f.s.parts,
    store: f.s.storeClient,
    eligibility: f.s.config.eligibility,
    now: () => now,
  });
}

const minutesAhead = (minutes: number) => new Date(Date.now() + minutes * 60_000);

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
    providerReceived(f, id, { 'Wool blanket': 3, 'Ceramic mug': 1 });
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

  it('put on hold after registration: not an edit, the held units are still the shipment', async () => {
    const f = await flow();
    const id = await place(f, { lineItems: [{ ...BLANKET, quantity: 2 }, MUG] });
    await settledAs(f, id, 'registered');
    await settled(f.s);
    const heldAt = Date.now();
    const [fo] = f.s.store.order(id)!.fulfillmentOrders;
    const { webhook } = await f.s.store.holdFulfillmentOrder(
      fo!.id,
      {},
      { webhookUrl: f.webhookUrl },
    );
    // Its body shows the order as before: not checked for it. Reconciliation reads it again.
    expect(webhook?.status).toBe(200);
    expect(await allJobs(f.s.queues.checkOrderEdit)).toEqual([]);
    await f.s.parts.enqueueOrder(id, 'reconcile');

    const checks = await waitUntil(
      async () => {
        const all = await allJobs(f.s.queues.checkOrderEdit);
        const after = all.filter((job) => job.timestamp >= heldAt);
        return after.length > 0 && all.every((job) => job.returnvalue) ? all : null;
      },
      { what: 'the edit check after the hold', timeoutMs: 20_000 },
    );
    expect(checks.map((job) => (job.returnvalue as { outcome: string }).outcome)).not.toContain(
      'reported',
    );
    expect(f.s.store.order(id)!.tags).not.toContain('shipment-order-edited');
    expect((await f.s.counters.read()).orders_edited_after_registration ?? 0).toBe(0);
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

  it("staff mark the parcel and a local pickup fulfilled without tracking: the carrier's number goes on the parcel's fulfillment only", async () => {
    const f = await flow();
    const id = await place(f, {
      lineItems: [MUG, { title: 'Vase', deliveryMethod: 'PICK_UP' }],
    });
    await settledAs(f, id, 'registered');
    for (const title of ['Vase', 'Ceramic mug']) {
      await f.s.store.fulfil(id, { lines: [{ title, quantity: 1 }] }, { sendWebhook: false });
    }

    await shipAndDeliver(f, id);

    const order = f.s.store.order(id)!;
    const byTitle = (title: string) => {
      const item = order.lineItems.find((l) => l.title === title)!;
      const lines = order.fulfillmentOrders.flatMap((fo) => fo.lineItems);
      return order.fulfillments.find((x) =>
        x.lineItems.some(
          (l) =>
            lines.find((line) => line.id === l.fulfillmentOrderLineItemId)?.lineItemId === item.id,
        ),
      )!;
    };
    expect(byTitle('Ceramic mug').trackingInfo.map((t) => t.number)).toEqual([`TN${id}`]);
    expect(byTitle('Vase').trackingInfo).toEqual([]);
    expect(byTitle('Vase').displayStatus).not.toBe('DELIVERED');
    expect(appFulfillments(f, id)).toEqual([]);
  });

  it("staff's own untracked fulfillment from before registration never gets the carrier's number", async () => {
    const f = await flow();
    const id = await place(f, {
      financialStatus: 'PENDING',
      lineItems: [{ ...BLANKET, quantity: 3 }, MUG],
    });
    await skippedWith(f, id, /Financial status is pending/);
    const staff = await f.s.store.fulfil(
      id,
      { lines: [{ title: 'Wool blanket', quantity: 2 }] },
      { sendWebhook: false },
    );
    // Shopify's times are whole seconds: the payment comes in a later one.
    const madeAt = Date.parse(staff.fulfillments[0]!.createdAt);
    await waitUntil(() => Date.now() >= madeAt + 1000, { what: 'the next second' });
    // The provider's clock at the send, as in life: its created_at is a bound too.
    f.tick();
    await f.s.store.updateOrder(id, { markPaid: true }, { webhookUrl: f.webhookUrl });
    await settledAs(f, id, 'registered');
    providerReceived(f, id, { 'Wool blanket': 1, 'Ceramic mug': 1 });
    // Staff then mark the parcel's units fulfilled themselves, without tracking.
    await f.s.store.fulfil(id, {}, { sendWebhook: false });

    await shipAndDeliver(f, id);

    const [before, after, ...more] = f.s.store.order(id)!.fulfillments;
    expect(more).toEqual([]);
    expect(before!.trackingInfo).toEqual([]);
    expect(after!.trackingInfo.map((t) => t.number)).toEqual([`TN${id}`]);
  });

  it('a pickup point (a carrier delivery to a parcel shop): skipped, saying why, by default', async () => {
    const f = await flow();
    const id = await place(f, { lineItems: [{ ...MUG, deliveryMethod: 'PICKUP_POINT' }] });
    await skippedWith(
      f,
      id,
      /^1 × Ceramic mug is for a pickup point, whose address Shopify does not give reliably \(SHIP_PICKUP_POINTS=true ships it to the shipping address\); nothing left/,
    );
  });

  it('a pickup point with SHIP_PICKUP_POINTS: shipped to the shipping address', async () => {
    const f = await flow({ shipment: { shipPickupPoints: true } });
    const id = await place(f, {
      shippingAddress: {
        name: 'Pakkeshop 4021',
        address1: 'Vesterbrogade 10',
        zip: '1620',
        city: 'København V',
      },
      lineItems: [{ ...MUG, deliveryMethod: 'PICKUP_POINT' }],
    });
    await shipsExactly(f, id, { 'Ceramic mug': 1 });
    const [shipment] = shipmentsWithReference(f.s.sandbox, id);
    expect(shipment!.request.receiver).toMatchObject({
      name: 'Pakkeshop 4021',
      address: { street: 'Vesterbrogade 10', postal_code: '1620', city: 'København V' },
    });
  });

  it('a pickup point sent with SHIP_PICKUP_POINTS, the setting turned off before it ships: still fulfilled with tracking', async () => {
    const f = await flow({ shipment: { shipPickupPoints: true } });
    const id = await place(f, {
      lineItems: [MUG, { ...MUG, title: 'Vase', deliveryMethod: 'PICKUP_POINT' }],
    });
    await settledAs(f, id, 'registered');
    expect(await askedFor(f, id)).toEqual({ 'Ceramic mug': 1, Vase: 1 });
    f.s.config.shipment.shipPickupPoints = false;
    // Not an edit of the order: only what today's setting takes changed.
    expect(await checkOrderEdit(id, registerDepsOf(f.s))).toEqual({ outcome: 'unchanged' });

    await shipAndDeliver(f, id);

    expect(appFulfillments(f, id)).toEqual([{ 'Ceramic mug': 1, Vase: 1 }]);
    const [ours, ...more] = f.s.store.order(id)!.fulfillments;
    expect(more).toEqual([]);
    expect(ours!.trackingInfo.map((t) => t.number)).toEqual([`TN${id}`]);
    expect((await f.s.parts.tracking.get(id))?.unfulfillableNumber).toBeUndefined();
  });

  it('sent from a location the provider no longer collects from (COLLECT_FROM_LOCATIONS changed): still fulfilled with tracking', async () => {
    const f = await flow({ shipment: { collectFromLocations: ['Aarhus warehouse'] } });
    const id = await place(f, { lineItems: [{ title: 'Vase', location: 'Aarhus warehouse' }] });
    await settledAs(f, id, 'registered');
    f.s.config.shipment.collectFromLocations = ['Shop location'];

    await shipAndDeliver(f, id);

    expect(appFulfillments(f, id)).toEqual([{ Vase: 1 }]);
    const [ours] = f.s.store.order(id)!.fulfillments;
    expect(ours!.trackingInfo.map((t) => t.number)).toEqual([`TN${id}`]);
  });

  it.each([
    {
      setting: 'COLLECT_FROM_LOCATIONS widened to a location holding units',
      shipment: { collectFromLocations: ['Shop location'] },
      unsent: { title: 'Vase', location: 'Aarhus warehouse' },
      change: (f: Flow) => {
        f.s.config.shipment.collectFromLocations = [];
      },
    },
    {
      setting: 'SHIP_PICKUP_POINTS turned on with a pickup point in the order',
      shipment: {},
      unsent: { title: 'Vase', deliveryMethod: 'PICKUP_POINT' as const },
      change: (f: Flow) => {
        f.s.config.shipment.shipPickupPoints = true;
      },
    },
  ])(
    '$setting after registration: not an edit, while a real edit still is',
    async ({ shipment, unsent, change }) => {
      const f = await flow({ shipment });
      const id = await place(f, { lineItems: [{ ...MUG, quantity: 2 }, unsent] });
      await settledAs(f, id, 'registered');
      expect(await askedFor(f, id)).toEqual({ 'Ceramic mug': 2 });
      await settled(f.s);

      change(f);
      expect(await checkOrderEdit(id, registerDepsOf(f.s))).toEqual({ outcome: 'unchanged' });

      await f.s.store.updateOrder(
        id,
        { lineQuantities: [{ title: 'Ceramic mug', quantity: 1 }] },
        { sendWebhook: false },
      );
      expect(await checkOrderEdit(id, registerDepsOf(f.s))).toEqual({
        outcome: 'reported',
        changes: ['lines'],
      });
    },
  );

  it('the location collected from renamed, COLLECT_FROM_LOCATIONS following it: not an edit, while a real edit still is', async () => {
    const f = await flow({ shipment: { collectFromLocations: ['Shop location'] } });
    const id = await place(f, {
      lineItems: [
        { ...MUG, quantity: 2 },
        { title: 'Vase', location: 'Aarhus warehouse' },
      ],
    });
    await settledAs(f, id, 'registered');
    expect(await askedFor(f, id)).toEqual({ 'Ceramic mug': 2 });
    await settled(f.s);

    f.s.store.renameLocation('Shop location', 'Copenhagen shop');
    f.s.config.shipment.collectFromLocations = ['Copenhagen shop'];
    expect(await checkOrderEdit(id, registerDepsOf(f.s))).toEqual({ outcome: 'unchanged' });

    await f.s.store.updateOrder(
      id,
      { lineQuantities: [{ title: 'Ceramic mug', quantity: 1 }] },
      { sendWebhook: false },
    );
    expect(await checkOrderEdit(id, registerDepsOf(f.s))).toEqual({
      outcome: 'reported',
      changes: ['lines'],
    });
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
    // Skipped is written before waiting, and a pass meeting the create job still running leaves it.
    await waitUntil(async () => f.s.records.isWaiting(id), { what: 'the order to wait' });
    await settled(f.s);

    const { updatedAt } = f.s.store.order(id)!;
    const [fo] = f.s.store.order(id)!.fulfillmentOrders;
    // Shopify announces a release on fulfillment_orders/hold_released (the connector takes no
    // such webhook), and the order's updated_at need not move: a later pass reads it again.
    await f.s.store.releaseHold(fo!.id, { sendWebhook: false });
    expect(f.s.store.order(id)!.updatedAt).toBe(updatedAt);
    expect(await passIn(f, 0)).toMatchObject({ seen: 0, waitingRechecked: 0 });
    expect(await passIn(f, 6)).toMatchObject({ seen: 0, waitingRechecked: 1 });
    await shipsExactly(f, id, { 'Ceramic mug': 1 });
    expect(await f.s.records.dueWaiting(minutesAhead(600), 10)).toEqual([]);
  });

  it('open but not fulfillable by the app yet: waits with the reason, registered once Shopify offers it', async () => {
    const f = await flow();
    const id = await place(f, {
      lineItems: [MUG],
      fulfillmentOrders: [{ fulfilmentOffered: false }],
    });
    const record = await skippedWith(
      f,
      id,
      /^Waiting: 1 × Ceramic mug cannot be fulfilled by an app yet \(.+\) in Shopify; the shipment is registered once it is released\.$/,
    );
    expect(record.skipCode).toBe('held');
    await waitUntil(async () => f.s.records.isWaiting(id), { what: 'the order to wait' });

    const [fo] = f.s.store.order(id)!.fulfillmentOrders;
    f.s.store.offerFulfilment(fo!.id, true);
    expect(await passIn(f, 6)).toMatchObject({ waitingRechecked: 1 });
    await shipsExactly(f, id, { 'Ceramic mug': 1 });
  });

  it('a look at an order still on hold takes no place in the partner budget and adds nothing to its timeline', async () => {
    const f = await flow({ workers: false });
    const { client, counted } = countingReservations(f.s.partner);
    f.s.startWorkers({ ports: { partner: client } });
    const id = await place(f, {
      lineItems: [MUG],
      fulfillmentOrders: [{ hold: { reason: 'INCORRECT_ADDRESS' } }],
    });
    const first = await skippedWith(f, id, /^Waiting: /);
    await waitUntil(async () => f.s.records.isWaiting(id), { what: 'the order to wait' });
    await settled(f.s);
    // The first look at a new order takes its place before reading it (and gives it back).
    expect(counted.reserved).toBe(1);
    const story = await f.s.parts.timeline.read(id);
    expect(story).toHaveLength(1);

    // Not due at the next pass: the first look comes 5 minutes after the wait began.
    expect(await passIn(f, 1)).toMatchObject({ waitingRechecked: 0 });
    let updatedAt = first.updatedAt;
    for (const minutes of [6, 12]) {
      expect(await passIn(f, minutes)).toMatchObject({ waitingRechecked: 1 });
      const looked = await waitUntil(
        async () => {
          const record = await f.s.records.get(id);
          return record?.updatedAt !== updatedAt ? record : null;
        },
        { what: 'the order to be looked at again' },
      );
      // Its job ends after the record is written: the next pass would find it still running.
      await settled(f.s);
      expect(looked).toMatchObject({
        state: 'skipped',
        skipCode: 'held',
        waitingSince: expect.any(String),
      });
      updatedAt = looked!.updatedAt;
    }
    expect(counted.reserved).toBe(1);
    expect(await f.s.parts.timeline.read(id)).toEqual(story);

    // Released: the look that sends it takes its place, and the request is on the timeline.
    const [fo] = f.s.store.order(id)!.fulfillmentOrders;
    await f.s.store.releaseHold(fo!.id, { sendWebhook: false });
    expect(await passIn(f, 60)).toMatchObject({ waitingRechecked: 1 });
    await settledAs(f, id, 'registered');
    expect(counted.reserved).toBe(2);
    const after = await f.s.parts.timeline.read(id);
    expect(after.filter((entry) => entry.kind === 'event')).toEqual(
      story.filter((entry) => entry.kind === 'event'),
    );
    expect(after.some((entry) => entry.kind === 'provider-request')).toBe(true);
  });

  it('more than 100 waiting orders: every one is read again, and each released one registered', async () => {
    const f = await flow({ budget: { limit: 1000 }, sandbox: { rateLimit: 1000 } });
    const ids = Array.from({ length: 130 }, (_, i) => String(nextId + 1 + i));
    nextId += ids.length;
    for (const id of ids) {
      await f.s.store.createOrder(
        { id, lineItems: [MUG], fulfillmentOrders: [{ hold: { reason: 'OTHER' } }] },
        { sendWebhook: false },
      );
    }
    // Found by reconciliation, read by the worker: each waits.
    await reconcileOrders(new Date(Date.now() - 3600_000), 'reconcile', {
      ...f.s.parts,
      store: f.s.storeClient,
      eligibility: f.s.config.eligibility,
    });
    await waitUntil(
      async () => (await f.s.records.dueWaiting(minutesAhead(600), 200)).length === 130,
      {
        what: 'every order to wait',
        timeoutMs: 60_000,
      },
    );

    // Staff release all but ten; Shopify says nothing of it, and no order's updated_at moves.
    const released = ids.slice(0, 120);
    for (const id of released) {
      const [fo] = f.s.store.order(id)!.fulfillmentOrders;
      await f.s.store.releaseHold(fo!.id, { sendWebhook: false });
    }
    const registered = async () =>
      (await Promise.all(released.map((id) => f.s.records.isRegistered(id)))).filter(Boolean)
        .length;
    const rechecked: number[] = [];
    for (let minutes = 6; (await registered()) < released.length; minutes += 6) {
      if (minutes > 60)
        throw new Error(`only ${await registered()} registered after an hour of passes`);
      const pass = await passIn(f, minutes);
      rechecked.push(pass.waitingRechecked);
      await waitUntil(
        async () => {
          const counts = await f.s.queues.createShipment.getJobCounts(
            'waiting',
            'active',
            'delayed',
            'prioritized',
          );
          return Object.values(counts).every((n) => n === 0);
        },
        { what: 'the looks to settle', timeoutMs: 60_000 },
      );
    }
    // At most 100 a pass: more than one pass was needed.
    expect(rechecked[0]).toBe(100);
    expect(rechecked.length).toBeGreaterThan(1);
    expect(shipmentsWithReference(f.s.sandbox, released[119]!)).toHaveLength(1);
    const stillHeld = ids.slice(120);
    expect((await f.s.records.dueWaiting(minutesAhead(600), 200)).sort()).toEqual(
      [...stillHeld].sort(),
    );
  }, 60_000);

  it('scheduled weeks ahead: waits, saying until when, and is registered within 6 hours after staff fulfil it early', async () => {
    const f = await flow();
    const id = await place(f, {
      lineItems: [MUG],
      fulfillmentOrders: [{ fulfillAt: '2030-01-01T09:00:00Z' }],
    });
    await skippedWith(f, id, /^Waiting: 1 × Ceramic mug is scheduled for 2030-01-01T09:00:00Z/);
    // Read again every 6 hours until its date: "Fulfill early" changes nothing Shopify lists
    // orders by. The order is noted as waiting right after its skip is recorded.
    await waitUntil(
      async () => (await f.s.records.dueWaiting(minutesAhead(6 * 60), 10)).length > 0,
      { what: 'the order to be noted as waiting' },
    );
    expect(await f.s.records.dueWaiting(minutesAhead(6 * 60 - 10), 10)).toEqual([]);

    const [fo] = f.s.store.order(id)!.fulfillmentOrders;
    const { updatedAt } = f.s.store.order(id)!;
    f.s.store.openEarly(fo!.id);
    expect(f.s.store.order(id)!.updatedAt).toBe(updatedAt);
    expect(await passIn(f, 6 * 60 + 1)).toMatchObject({ waitingRechecked: 1 });
    await shipsExactly(f, id, { 'Ceramic mug': 1 });
  });

  it('a prepaid subscription: the box due now ships alone, the later deliveries are left out, never an edit nor fulfilled by the connector once they open', async () => {
    const f = await flow();
    const id = await place(f, {
      lineItems: [
        { ...MUG, title: 'Coffee box' },
        { ...MUG, title: 'Coffee box, January', location: 'Aarhus warehouse' },
        { ...MUG, title: 'Coffee box, February', location: 'Odense warehouse' },
      ],
      fulfillmentOrders: [
        { location: 'Aarhus warehouse', fulfillAt: '2030-01-10T08:00:00Z' },
        { location: 'Odense warehouse', fulfillAt: '2030-02-10T08:00:00Z' },
      ],
    });
    await settledAs(f, id, 'registered');
    // The registration marks written, so the order stays still while it is read below.
    await settled(f.s);
    expect(await askedFor(f, id)).toEqual({ 'Coffee box': 1 });
    expect(await f.s.records.isWaiting(id)).toBe(false);

    // Staff fulfil January's early: a later delivery, not a change of the shipment sent.
    const january = f.s.store
      .order(id)!
      .fulfillmentOrders.find((fo) => fo.fulfillAt === '2030-01-10T08:00:00Z')!;
    f.s.store.openEarly(january.id);
    expect(await checkOrderEdit(id, registerDepsOf(f.s))).toEqual({ outcome: 'unchanged' });
    // Shipped and fulfilled: the box sent only, January's left open for staff.
    await shipsExactly(f, id, { 'Coffee box': 1 });
    const opened = f.s.store.order(id)!.fulfillmentOrders.find((fo) => fo.id === january.id)!;
    expect(opened.status).toBe('OPEN');
    expect(opened.lineItems.map((l) => l.remainingQuantity)).toEqual([1]);
  });

  it('a later delivery staff opened early before the order was sent ships with it, and is no edit afterwards', async () => {
    const f = await flow();
    nextId += 1;
    const id = String(nextId);
    await f.s.store.createOrder(
      {
        id,
        lineItems: [MUG, { ...MUG, title: 'Coffee box', location: 'Aarhus warehouse' }],
        fulfillmentOrders: [{ location: 'Aarhus warehouse', fulfillAt: '2030-01-10T08:00:00Z' }],
      },
      { sendWebhook: false },
    );
    const later = f.s.store
      .order(id)!
      .fulfillmentOrders.find((fo) => fo.fulfillAt === '2030-01-10T08:00:00Z')!;
    f.s.store.openEarly(later.id);
    await f.s.parts.enqueueOrder(id, 'orders/paid');
    await settledAs(f, id, 'registered');
    expect(await askedFor(f, id)).toEqual({ 'Ceramic mug': 1, 'Coffee box': 1 });
    expect(await checkOrderEdit(id, registerDepsOf(f.s))).toEqual({ outcome: 'unchanged' });
  });

  it('the looks at a waiting order back off by the clock the worker is given: 5, 10, 20, 40 minutes, then hourly', async () => {
    const f = await flow({ workers: false });
    let clock = new Date();
    f.s.startWorkers({ ports: { clock: () => clock } });
    const id = await place(f, {
      lineItems: [MUG],
      fulfillmentOrders: [{ hold: { reason: 'OTHER' } }],
    });
    await skippedWith(f, id, /^Waiting: /);
    const began = clock.getTime();
    /** The next look's time, once the worker has recorded one later than `after`. */
    const nextLook = async (after: number) =>
      waitUntil(
        async () => {
          const [due] = await f.s.records.dueWaiting(new Date(after + 3 * 3600_000), 1);
          if (!due) return null;
          const soon = await f.s.records.dueWaiting(new Date(after), 1);
          if (soon.length > 0) return null;
          for (let minutes = 1; minutes <= 180; minutes += 1) {
            const at = after + minutes * 60_000;
            if ((await f.s.records.dueWaiting(new Date(at), 1)).length > 0) return at;
          }
          return null;
        },
        { what: 'the next look to be set' },
      );
    const gaps: number[] = [];
    let due = await nextLook(began);
    expect(due - began).toBe(5 * 60_000);
    for (let look = 0; look < 6; look += 1) {
      clock = new Date(due);
      const pass = await reconcileOrders(new Date(Date.now() + 3600_000), 'reconcile', {
        ...f.s.parts,
        store: f.s.storeClient,
        eligibility: f.s.config.eligibility,
        now: () => clock,
      });
      expect(pass.waitingRechecked).toBe(1);
      const next = await nextLook(due);
      gaps.push((next - due) / 60_000);
      due = next;
    }
    // Looks at 5, 10, 20, 40, 80 minutes into the wait: each as long again as it waited, then
    // at most an hour apart.
    expect(gaps).toEqual([5, 10, 20, 40, 60, 60]);
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

describe('a create answered with the shipment an earlier request made', () => {
  it('keeps what that request held, and flags the order changed since as an edit', async () => {
    const s = await start({ workers: false });
    const id = FIXTURE.paidCopenhagen;
    const deps = registerDepsOf(s);
    // The provider makes the shipment, then answers 500: the connector cannot tell it exists.
    s.sandbox.failNextCreates(1);
    await expect(registerShipment(id, deps)).rejects.toBeInstanceOf(PartnerServerError);
    const first = await s.records.get(id);
    await s.store.updateOrder(id, { lineQuantities: [{ title: 'Ceramic mug', quantity: 1 }] });

    const outcome = await registerShipment(id, deps);

    expect(outcome).toMatchObject({ outcome: 'registered', created: false });
    // The provider holds the first request, with its 4 mugs.
    const [shipment, ...more] = shipmentsWithReference(s.sandbox, id);
    expect(more).toEqual([]);
    expect(totalKg(shipment!.request.packages as PackageLine[])).toBe(3.8);
    const record = await s.records.get(id);
    expect(record?.sentUnits).toBe(first?.sentUnits);
    expect(record?.sentFingerprint).toBe(first?.sentFingerprint);
    expect(record?.editReportedChanges).toBe('lines');
    expect((await s.counters.read()).orders_edited_after_registration).toBe(1);
  });
  it('keeps what that request held through a refusal of a later one', async () => {
    const s = await start({ workers: false });
    const id = FIXTURE.paidCopenhagen;
    const deps = registerDepsOf(s);
    s.sandbox.failNextCreates(1);
    await expect(registerShipment(id, deps)).rejects.toBeInstanceOf(PartnerServerError);
    const first = await s.records.get(id);
    await s.store.updateOrder(id, { lineQuantities: [{ title: 'Ceramic mug', quantity: 1 }] });
    // The provider refuses the next request by a rule of its own, checked before the reference.
    nock(new URL(s.sandbox.url).origin, { allowUnmocked: true })
      .post('/api/v1/shipments')
      .reply(422, {
        success: false,
        message: 'The given data was invalid.',
        errors: { 'receiver.name': ['The name may not be greater than 5 characters.'] },
      });

    await expect(registerShipment(id, deps)).rejects.toBeInstanceOf(ShipmentInvalidError);

    // That answer was about the later request only: the first may have made the shipment.
    const refused = await s.records.get(id);
    expect(refused).toMatchObject({
      state: 'failed',
      sentUnits: first?.sentUnits,
      sentFingerprint: first?.sentFingerprint,
    });
    expect(refused?.sentAt).toBeDefined();

    expect(await registerShipment(id, deps)).toMatchObject({
      outcome: 'registered',
      created: false,
    });
    const record = await s.records.get(id);
    expect(record?.sentUnits).toBe(first?.sentUnits);
    expect(record?.sentFingerprint).toBe(first?.sentFingerprint);
    expect(record?.editReportedChanges).toBe('lines');
  });

  it('flags no edit when only a setting changed since that request', async () => {
    const s = await start({
      workers: false,
      shipment: { collectFromLocations: ['Shop location'] },
    });
    const id = '8699001';
    await s.store.createOrder({
      id,
      lineItems: [
        { ...MUG, quantity: 2 },
        { title: 'Vase', location: 'Aarhus warehouse' },
      ],
    });
    const deps = registerDepsOf(s);
    s.sandbox.failNextCreates(1);
    await expect(registerShipment(id, deps)).rejects.toBeInstanceOf(PartnerServerError);
    const first = await s.records.get(id);
    s.config.shipment.collectFromLocations = [];

    expect(await registerShipment(id, deps)).toMatchObject({
      outcome: 'registered',
      created: false,
    });

    const record = await s.records.get(id);
    expect(record?.sentUnits).toBe(first?.sentUnits);
    expect(record?.editReportedChanges).toBeUndefined();
    expect(await checkOrderEdit(id, deps)).toEqual({ outcome: 'unchanged' });
  });

  it('flags no edit when what that request was kept with is a fingerprint of the older kind', async () => {
    const s = await start({ workers: false });
    const id = FIXTURE.paidCopenhagen;
    const deps = registerDepsOf(s);
    s.sandbox.failNextCreates(1);
    await expect(registerShipment(id, deps)).rejects.toBeInstanceOf(PartnerServerError);
    // As kept for a request sent before fingerprints had a version: lines counted otherwise.
    const kept = (await s.records.get(id))!.sentFingerprint!;
    const old = kept.replace(/^v=\d+;/, '').replace(/lines=[0-9a-f]{16}/, 'lines=0123456789abcdef');
    await s.redis.hset(`${s.prefix}:order:${id}`, 'sentFingerprint', old);

    expect(await registerShipment(id, deps)).toMatchObject({
      outcome: 'registered',
      created: false,
    });

    const record = await s.records.get(id);
    expect(record?.editReportedChanges).toBeUndefined();
    expect((await s.counters.read()).orders_edited_after_registration ?? 0).toBe(0);
    // Replaced by the order as it is now, which later checks compare with.
    expect(record?.sentFingerprint).toBe(kept);
    expect(await checkOrderEdit(id, deps)).toEqual({ outcome: 'unchanged' });
  });
});

describe('a fingerprint kept before the lines were counted from the shipment contents', () => {
  it('is replaced once by the order as it is now, without flagging an edit', async () => {
    const s = await start({ workers: false });
    const id = FIXTURE.paidCopenhagen;
    const deps = registerDepsOf(s);
    await registerShipment(id, deps);
    // As stored before: no version, and lines that covered every line requiring shipping.
    const kept = (await s.records.get(id))!.sentFingerprint!;
    const old = kept.replace(/^v=\d+;/, '').replace(/lines=[0-9a-f]{16}/, 'lines=0123456789abcdef');
    await s.redis.hset(`${s.prefix}:order:${id}`, 'sentFingerprint', old);

    expect(await checkOrderEdit(id, deps)).toEqual({ outcome: 'baseline_recorded' });
    expect((await s.records.get(id))?.sentFingerprint).toBe(kept);
    expect(await checkOrderEdit(id, deps)).toEqual({ outcome: 'unchanged' });
    expect((await s.counters.read()).orders_edited_after_registration ?? 0).toBe(0);
  });
});
