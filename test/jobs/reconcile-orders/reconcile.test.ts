import { afterEach, describe, expect, it } from 'vitest';
import { reconcileOrdersJob } from '../../../jobs/reconcile-orders/job.js';
import { reconcilePass } from '../../../jobs/reconcile-orders/pass.js';
import { type ReconcileDeps, reconcileOrders } from '../../../jobs/reconcile-orders/reconcile.js';
import { upsertSchedules } from '../../../src/compose/workers.js';
import type { FakeStore } from '../../../src/sandbox/store/index.js';
import type { FakeOrderInput } from '../../../src/sandbox/store/model.js';
import {
  allJobs,
  ELIGIBILITY,
  type IntakeParts,
  intakeOnTestRedis,
  orderListings,
  type RunningIntake,
  SETTINGS,
  silentLogger,
  startIntake,
  startStore,
  storeClient,
  waitFor,
} from '../../helpers/intake.js';
import { capturingLogger } from '../../store/helpers.js';

const closers: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function store(options: Parameters<typeof startStore>[0] = {}): Promise<FakeStore> {
  const started = await startStore(options);
  closers.push(() => started.close());
  return started;
}

async function parts(name: string) {
  const intake = await intakeOnTestRedis(name);
  closers.push(() => intake.close());
  return intake;
}

function reconcileDeps(intake: IntakeParts, fakeStore: FakeStore) {
  return {
    ...intake,
    store: storeClient(fakeStore.url),
    eligibility: ELIGIBILITY,
    logger: silentLogger,
  } satisfies ReconcileDeps;
}

async function createJobIds(intake: IntakeParts) {
  return (await allJobs(intake.queues.createShipment)).map((j) => j.id).sort();
}

const registration = {
  orderNumber: 'PS-1',
  status: 'created',
  createdAt: '2026-11-21T10:00:00+01:00',
};

describe('reconcileOrders over the fake store', () => {
  const at = (minutes: number) => new Date(Date.UTC(2026, 10, 21, 8, minutes)).toISOString();
  // More than one page of 100.
  const eligibleIds = Array.from({ length: 105 }, (_, i) => String(5_560_000 + i));
  const orders: FakeOrderInput[] = [
    ...eligibleIds.map((id, i) => ({ id, createdAt: at(i), updatedAt: at(i) })),
    { id: '5561001', financialStatus: 'PENDING', updatedAt: at(110) },
    { id: '5561002', test: true, updatedAt: at(111) },
    { id: '5561003', cancelledAt: at(112), financialStatus: 'VOIDED', updatedAt: at(112) },
    {
      id: '5561004',
      lineItems: [{ title: 'Gift card', requiresShipping: false }],
      updatedAt: at(113),
    },
    { id: '5561005', tags: ['No-Ship'], updatedAt: at(114) },
    // Registered already: one untouched, one cancelled since.
    { id: '5561006', updatedAt: at(115) },
    { id: '5561007', cancelledAt: at(116), updatedAt: at(116) },
  ];

  it('pages every order, queues exactly the eligible unregistered ones and records why the rest were skipped', async () => {
    const fakeStore = await store({ orders });
    const intake = await parts('reconcile');
    await intake.records.markRegistered('5561006', registration);
    await intake.records.markRegistered('5561007', registration);

    const summary = await reconcileOrders(
      new Date('2026-11-21T00:00:00Z'),
      'reconcile',
      reconcileDeps(intake, fakeStore),
    );

    expect(summary).toEqual({
      pages: 2,
      seen: 112,
      queued: 105,
      skipped: 5,
      flaggedCancelled: 1,
      alreadyRegistered: 1,
      alreadyQueued: 0,
      alreadyFlagged: 0,
      waitingRechecked: 0,
    });
    // Two pages of at most 100, the second after the first's cursor.
    const listings = orderListings(fakeStore);
    expect(listings).toHaveLength(2);
    expect(listings[0]).toMatchObject({
      first: 100,
      after: null,
      query: "updated_at:>='2026-11-21T00:00:00Z'",
    });
    expect(listings[1]!.after).toEqual(expect.any(String));

    expect(await createJobIds(intake)).toEqual(eligibleIds.map((id) => `order-${id}`).sort());
    const job = await intake.queues.createShipment.getJob('order-5560000');
    expect(job!.data).toEqual({ orderId: '5560000', source: 'reconcile' });

    const skipped = await Promise.all(
      ['5561001', '5561002', '5561003', '5561004', '5561005'].map((id) => intake.records.get(id)),
    );
    expect(skipped.map((r) => [r?.state, r?.skipCode])).toEqual([
      ['skipped', 'not_paid'],
      ['skipped', 'test'],
      ['skipped', 'cancelled'],
      ['skipped', 'no_shipping'],
      ['skipped', 'tag_excluded'],
    ]);
    expect(skipped[0]!.reason).toBe('Financial status is pending; ready statuses are: paid.');
    expect(skipped[4]!.reason).toBe('Order has the excluded tag no-ship.');

    // The registered order stays as it was; the cancelled one is flagged for staff.
    expect(await intake.records.get('5561006')).toMatchObject({ state: 'registered' });
    expect(await intake.records.get('5561007')).toMatchObject({
      state: 'registered',
      cancelledAfterRegistrationAt: expect.any(String),
    });
    expect((await allJobs(intake.queues.markOrder)).map((j) => [j.id, j.data])).toEqual([
      [
        'cancelled-after-registration-5561007',
        { orderId: '5561007', kind: 'cancelled_after_registration' },
      ],
    ]);
    expect((await intake.counters.read()).cancelled_after_registration).toBe(1);
  });

  it('queues nothing more and flags nothing twice on the next pass', async () => {
    const fakeStore = await store({ orders });
    const intake = await parts('reconcile-again');
    await intake.records.markRegistered('5561006', registration);
    await intake.records.markRegistered('5561007', registration);
    const deps = reconcileDeps(intake, fakeStore);
    await reconcileOrders(new Date('2026-11-21T00:00:00Z'), 'reconcile', deps);

    const second = await reconcileOrders(new Date('2026-11-21T00:00:00Z'), 'reconcile', deps);

    expect(second).toMatchObject({ seen: 112, queued: 0, skipped: 5, flaggedCancelled: 0 });
    expect(await createJobIds(intake)).toHaveLength(105);
    expect(await intake.queues.createShipment.getJob('order-5561006')).toBeUndefined();
    expect(await allJobs(intake.queues.markOrder)).toHaveLength(1);
    expect((await intake.counters.read()).cancelled_after_registration).toBe(1);
  });

  it('hands a cancelled order to the worker when it was refused or its create answer was lost', async () => {
    const fakeStore = await store({ orders });
    const intake = await parts('reconcile-unfinished');
    // 5561003 is cancelled: once refused, it has error marks on it to clear.
    await intake.records.markFailed('5561003', 'Order #1 cannot be shipped as it is: …');
    const deps = reconcileDeps(intake, fakeStore);

    const summary = await reconcileOrders(new Date('2026-11-21T00:00:00Z'), 'reconcile', deps);

    // The four ineligible others, and 5561007 (cancelled, never registered here).
    expect(summary.skipped).toBe(5);
    expect(await intake.queues.createShipment.getJob('order-5561003')).toBeDefined();
    expect((await intake.records.get('5561003'))?.state).toBe('failed');
  });

  it('hands the worker a cancelled order that carries registration marks but no record, unless it was settled', async () => {
    const cancelled = {
      cancelledAt: at(10),
      financialStatus: 'VOIDED' as const,
      updatedAt: at(10),
    };
    const numberMark = { namespace: 'partner_shipment', key: 'order_number', value: 'PS-9' };
    const fakeStore = await store({
      orders: [
        // Registered, then Redis lost the record: only the marks on the order tell.
        { id: '5562001', ...cancelled, metafields: [numberMark] },
        { id: '5562002', ...cancelled, tags: ['Shipment-Registered'] },
        // Flagged before the loss: staff know already.
        {
          id: '5562003',
          ...cancelled,
          tags: ['shipment-registered', 'shipment-cancel-at-provider'],
          metafields: [numberMark],
        },
        // The worker asked the provider already and found nothing (another environment's marks).
        { id: '5562004', ...cancelled, metafields: [numberMark] },
        // No marks: nothing to ask about.
        { id: '5562005', ...cancelled },
      ],
    });
    const intake = await parts('reconcile-marks');
    await intake.records.markSkipped('5562004', 'cancelled', 'Order is cancelled.');

    const summary = await reconcileOrders(
      new Date('2026-11-21T00:00:00Z'),
      'reconcile',
      reconcileDeps(intake, fakeStore),
    );

    expect(summary).toMatchObject({ seen: 5, queued: 2, skipped: 3 });
    expect(await createJobIds(intake)).toEqual(['order-5562001', 'order-5562002']);
  });

  it('takes a waiting order found cancelled off the waiting list, with since when it waited', async () => {
    const fakeStore = await store({
      orders: [
        { id: '5563001', cancelledAt: '2026-11-21T09:00:00Z', updatedAt: '2026-11-21T09:00:00Z' },
      ],
    });
    const intake = await parts('reconcile-waiting-cancelled');
    await intake.records.markSkipped('5563001', 'held', 'Waiting: 1 × Mug is on hold in Shopify.');
    await intake.records.markWaiting('5563001', new Date(Date.now() + 3600_000));

    const summary = await reconcileOrders(
      new Date('2026-11-21T00:00:00Z'),
      'reconcile',
      reconcileDeps(intake, fakeStore),
    );

    expect(summary).toMatchObject({ seen: 1, skipped: 1 });
    expect(await intake.records.get('5563001')).toMatchObject({ skipCode: 'cancelled' });
    expect((await intake.records.get('5563001'))?.waitingSince).toBeUndefined();
    expect(await intake.records.isWaiting('5563001')).toBe(false);
  });

  it('queues on the next pass an order whose webhook never came, and not one that was delivered', async () => {
    const intake: RunningIntake = await startIntake({ name: 'reconcile-missed' });
    closers.push(() => intake.close());
    const fakeStore = await store({ orders: [], webhookUrl: `${intake.url}/webhooks/shopify` });

    // Shopify announces this one: real HTTP, signed by the fake store, checked by the library.
    const announced = await fakeStore.createOrder({ id: '5570001' });
    expect(announced.webhook).toMatchObject({ topic: 'orders/create', status: 200 });
    // This one's webhook is lost.
    const lost = await fakeStore.createOrder({ id: '5570002' }, { sendWebhook: false });
    expect(lost.webhook).toBeUndefined();
    expect(await createJobIds(intake)).toEqual(['order-5570001']);

    const summary = await reconcileOrders(
      new Date(Date.now() - 3_600_000),
      'reconcile',
      reconcileDeps(intake, fakeStore),
    );

    expect(summary).toMatchObject({ seen: 2, queued: 1 });
    const jobs = await allJobs(intake.queues.createShipment);
    expect(Object.fromEntries(jobs.map((j) => [j.id, j.data.source]))).toEqual({
      'order-5570001': 'orders/create',
      'order-5570002': 'reconcile',
    });
  });
});

describe('reconcilePass', () => {
  const OVERLAP_MS = 10 * 60_000;

  async function setup(
    name: string,
    clock: { now: Date },
    storeOptions = {},
    firstLookbackDays = 1,
  ) {
    const fakeStore = await store();
    const intake = await parts(name);
    const deps = {
      ...reconcileDeps(intake, fakeStore),
      store: storeClient(fakeStore.url, storeOptions),
      settings: {
        ...SETTINGS,
        intake: { pollIntervalMs: 300_000, pollOverlapMs: OVERLAP_MS, firstLookbackDays },
      },
      serverTime: async () => clock.now,
      now: () => clock.now,
    };
    const watermark = () => intake.redis.get(`${intake.prefix}:reconcile:watermark`);
    return { fakeStore, intake, run: () => reconcilePass(deps), watermark };
  }

  it('stores the watermark and starts the next pass from it minus the overlap', async () => {
    const clock = { now: new Date('2026-11-20T16:00:00Z') };
    const { fakeStore, intake, run, watermark } = await setup('processor', clock);

    // First pass: no watermark yet, so RECONCILE_FIRST_LOOKBACK_DAYS (here 1) back, and the overlap.
    const first = await run();
    expect(first).toMatchObject({ seen: 7, queued: 4, skipped: 3 });
    expect(orderListings(fakeStore).at(-1)!.query).toBe("updated_at:>='2026-11-19T15:50:00Z'");
    expect(await watermark()).toBe('2026-11-20T16:00:00.000Z');

    // An update Shopify's search indexed late: stamped before the watermark, within the overlap.
    await fakeStore.createOrder(
      { id: '5550100', createdAt: '2026-11-20T15:55:00Z', updatedAt: '2026-11-20T15:55:00Z' },
      { sendWebhook: false },
    );
    clock.now = new Date('2026-11-20T16:05:00Z');
    const second = await run();

    expect(orderListings(fakeStore).at(-1)!.query).toBe("updated_at:>='2026-11-20T15:50:00Z'");
    expect(second).toMatchObject({ seen: 1, queued: 1 });
    expect(await intake.queues.createShipment.getJob('order-5550100')).toBeDefined();
    expect(await watermark()).toBe('2026-11-20T16:05:00.000Z');
  });

  it('after Redis lost its data, looks back RECONCILE_FIRST_LOOKBACK_DAYS and queues an order whose job was lost', async () => {
    const clock = { now: new Date('2026-11-20T16:00:00Z') };
    const { fakeStore, intake, run } = await setup('processor-lost', clock, {}, 30);
    // Paid twelve days ago; its create job was retrying (or failed, kept to replay) when Redis
    // lost every key, watermark included. No webhook will come for it again.
    await fakeStore.createOrder(
      { id: '5550200', createdAt: '2026-11-08T09:00:00Z', updatedAt: '2026-11-08T09:00:00Z' },
      { sendWebhook: false },
    );

    const first = await run();

    expect(orderListings(fakeStore).at(-1)!.query).toBe("updated_at:>='2026-10-21T15:50:00Z'");
    expect(first).toMatchObject({ queued: 5 });
    expect(await intake.queues.createShipment.getJob('order-5550200')).toBeDefined();
  });

  it('keeps the watermark when a pass fails, so the next pass covers the same orders', async () => {
    const clock = { now: new Date('2026-11-20T16:00:00Z') };
    const { fakeStore, run, watermark } = await setup('processor-fail', clock, {
      maxThrottleWaits: 0,
    });
    await run();

    fakeStore.rateLimitNext(1);
    clock.now = new Date('2026-11-20T16:05:00Z');
    await expect(run()).rejects.toThrow();
    expect(await watermark()).toBe('2026-11-20T16:00:00.000Z');

    clock.now = new Date('2026-11-20T16:10:00Z');
    await run();
    expect(orderListings(fakeStore).at(-1)!.query).toBe("updated_at:>='2026-11-20T15:50:00Z'");
  });

  it('lets only one of two concurrent passes run; the other returns already_running', async () => {
    const clock = { now: new Date('2026-11-20T16:00:00Z') };
    const { fakeStore, intake, run } = await setup('processor-lock', clock);

    const results = await Promise.all([run(), run()]);

    expect(results.filter((r) => 'outcome' in r && r.outcome === 'already_running')).toHaveLength(
      1,
    );
    expect(results.filter((r) => 'seen' in r)).toEqual([
      expect.objectContaining({ seen: 7, queued: 4 }),
    ]);
    expect(orderListings(fakeStore)).toHaveLength(1);
    // The lock is given back: the next pass runs.
    expect(await run()).toMatchObject({ seen: expect.any(Number) });
    expect(await intake.redis.exists(`${intake.prefix}:reconcile:lock`)).toBe(0);
  });

  it("takes the watermark from Redis's clock, so a worker whose clock runs 20 minutes fast still finds new orders, and says its clock is off", async () => {
    const fakeStore = await store();
    const intake = await parts('processor-skew');
    const { logger, lines } = capturingLogger('warn');
    const fastClock = () => new Date(Date.now() + 20 * 60_000);
    const run = () =>
      reconcilePass({
        ...reconcileDeps(intake, fakeStore),
        logger,
        settings: {
          ...SETTINGS,
          intake: { pollIntervalMs: 300_000, pollOverlapMs: OVERLAP_MS, firstLookbackDays: 1 },
        },
        now: fastClock,
      });
    await run();
    const [seconds] = await intake.redis.time();
    const watermark = await intake.redis.get(`${intake.prefix}:reconcile:watermark`);
    expect(Date.parse(watermark!)).toBeLessThan((Number(seconds) + 1) * 1000);

    // Paid after that pass, by every clock but the worker's.
    const paidAt = new Date((Number((await intake.redis.time())[0]) + 1) * 1000).toISOString();
    await fakeStore.createOrder(
      { id: '5550300', createdAt: paidAt, updatedAt: paidAt },
      { sendWebhook: false },
    );
    const second = await run();

    expect(second).toMatchObject({ seen: 1, queued: 1 });
    expect(await intake.queues.createShipment.getJob('order-5550300')).toBeDefined();
    expect(lines()).toMatch(/this machine's clock is 1[12]\d\d s ahead of Redis's/);
  });

  it('does not run while another process holds the lock', async () => {
    const clock = { now: new Date('2026-11-20T16:00:00Z') };
    const { fakeStore, intake, run, watermark } = await setup('processor-held', clock);
    await intake.redis.set(`${intake.prefix}:reconcile:lock`, 'other-process', 'PX', 60_000);

    expect(await run()).toEqual({ outcome: 'already_running' });

    expect(orderListings(fakeStore)).toHaveLength(0);
    expect(await watermark()).toBeNull();
    expect(await intake.redis.get(`${intake.prefix}:reconcile:lock`)).toBe('other-process');
  });
});

describe('reconciliation schedule', () => {
  it('registers exactly one scheduler however often the service starts', async () => {
    const intake = await parts('schedule');
    const queue = intake.queues.reconcileOrders;
    // As src/service.ts does at every start, in every process.
    const schedule = (every: number) =>
      upsertSchedules({
        ...intake,
        settings: {
          ...SETTINGS,
          intake: { pollIntervalMs: every, pollOverlapMs: 60_000, firstLookbackDays: 30 },
        },
      });

    await schedule(300_000);
    await schedule(300_000);
    await schedule(120_000);

    expect(await queue.getJobSchedulersCount()).toBe(1);
    const [scheduler] = await queue.getJobSchedulers();
    expect(scheduler).toMatchObject({ key: reconcileOrdersJob.schedule?.id, every: 120_000 });
    const pending = await waitFor(async () => {
      const jobs = await allJobs(queue);
      return jobs.length > 0 ? jobs : undefined;
    });
    expect(pending).toHaveLength(1);
  });
});

describe('a registered order whose webhook was taken', () => {
  it('is not checked for edits again by reconciliation, unless it changed after that webhook', async () => {
    const id = '5569001';
    const updatedAt = new Date(Math.floor((Date.now() - 60_000) / 1000) * 1000);
    const fakeStore = await store({ orders: [{ id, updatedAt: updatedAt.toISOString() }] });
    const intake = await parts('reconcile-taken');
    await intake.records.markRegistered(id, registration);
    const since = new Date(Date.now() - 15 * 60_000);
    let checks = 0;
    const queue = intake.queues.checkOrderEdit;
    const add = queue.add.bind(queue);
    queue.add = (async (...args: Parameters<typeof add>) => {
      checks += 1;
      return add(...args);
    }) as typeof queue.add;

    // No webhook of it taken (lost, say): reconciliation checks it.
    await reconcileOrders(since, 'reconcile', reconcileDeps(intake, fakeStore));
    expect(checks).toBe(1);

    // Its orders/updated taken, the same update (a REST time in the shop's zone): the passes
    // whose window still holds it leave it.
    const body = {
      updatedAt: updatedAt.toISOString().replace('Z', '+00:00').replace('.000', ''),
      lineItems: [{ id: 1, quantity: 1 }],
    };
    await intake.acceptWebhook(
      { orderId: id, source: 'orders/updated', cancelled: false },
      { id: 'wh-1', bodyHash: 'h-1', order: body },
    );
    checks = 0;
    for (let pass = 0; pass < 3; pass++) {
      await reconcileOrders(since, 'reconcile', reconcileDeps(intake, fakeStore));
    }
    expect(checks).toBe(0);

    // Changed in Shopify after that body, its webhook lost: checked again.
    await fakeStore.updateOrder(id, { note: 'gift' }, { sendWebhook: false });
    await reconcileOrders(since, 'reconcile', reconcileDeps(intake, fakeStore));
    expect(checks).toBe(1);
  });
});
