import { describe, expect, it } from 'vitest';
import { runSyncCycle, type SyncDeps } from '../../../jobs/sync-shipments/cycle.js';
import type { PartnerClient } from '../../../src/partner/client.js';
import { PartnerServerError } from '../../../src/partner/errors.js';
import { holdPoint, type ShipmentStack, shipmentStacks } from '../../helpers/shipment-stack.js';
import { partnerCalls, providerClock } from '../../helpers/status-sync.js';

const start = shipmentStacks();

/** A sync stack with shipments the connector follows already (registered before, say). */
async function followed(count: number) {
  const time = providerClock();
  const s = await start({ workers: false, sandbox: { clock: time.clock } });
  const placed = new Date(Date.now() - 2 * 24 * 3600_000).toISOString();
  const ids = Array.from({ length: count }, (_, i) => String(7_300_000 + i));
  for (const id of ids)
    await s.store.createOrder({ id, createdAt: placed }, { sendWebhook: false });
  s.sandbox.seedShipments({
    references: ids,
    createdFrom: new Date(Date.now() - 24 * 3600_000),
    createdTo: new Date(Date.now() - 60_000),
  });
  return { s, ids, tick: time.tick };
}

/** The cycle's dependencies with the partner client replaced by `partner`. */
function deps(s: ShipmentStack, partner: Partial<PartnerClient> = {}): SyncDeps {
  const real = s.partner;
  return {
    ...s.context,
    partner: Object.assign(Object.create(real) as PartnerClient, partner),
    logger: s.logger,
  };
}

describe('a sync cycle', () => {
  it('never overlaps another: a second run while one holds the lock is skipped', async () => {
    const { s } = await followed(3);
    const hold = holdPoint();
    const real = s.partner;
    const slow = deps(s, {
      async listShipments(...args: Parameters<PartnerClient['listShipments']>) {
        await hold.stop();
        return real.listShipments(...args);
      },
    });

    const first = runSyncCycle(slow, 'run-1/a');
    await hold.reached;
    const second = await runSyncCycle(deps(s), 'run-2/b');
    hold.release();

    expect(second).toMatchObject({ outcome: 'skipped', listRequests: 0 });
    expect(await first).toMatchObject({ outcome: 'synced', adopted: 3 });
  });

  it('drops a scheduled run that was due before the last cycle ended, and lists for the next slot or a run by hand', async () => {
    const { s } = await followed(3);
    let lists = 0;
    const real = s.partner;
    const counting = deps(s, {
      async listShipments(...args: Parameters<PartnerClient['listShipments']>) {
        lists += 1;
        return real.listShipments(...args);
      },
    });
    const dueWhileRunning = Date.now() - 1;
    expect(await runSyncCycle(counting, 'run-1/a')).toMatchObject({ outcome: 'synced' });
    expect(lists).toBe(1);

    // It waited behind that cycle: the cycle just listed what it would.
    expect(await runSyncCycle(counting, 'run-2/b', undefined, dueWhileRunning)).toMatchObject({
      outcome: 'skipped',
      reason: 'the last cycle ended after this run was due',
    });
    expect(lists).toBe(1);
    const { finishedAtMs } = await s.context.tracking.lastCycle();
    expect(await runSyncCycle(counting, 'run-3/c', undefined, finishedAtMs! + 1)).toMatchObject({
      outcome: 'synced',
    });
    expect(await runSyncCycle(counting, 'run-4/d')).toMatchObject({ outcome: 'synced' });
    expect(lists).toBe(3);

    // A finish time ahead of this clock (another process's skew) drops nothing.
    await s.redis.set(`${s.prefix}:sync:last-cycle-finished`, String(Date.now() + 600_000));
    expect(await runSyncCycle(counting, 'run-5/e', undefined, Date.now())).toMatchObject({
      outcome: 'synced',
    });
    expect(lists).toBe(4);
  });

  it('resumes a run cut short at the page it stopped on, never listing a page twice', async () => {
    const { s, ids } = await followed(450);
    const since = Date.now();
    let calls = 0;
    const real = s.partner;
    const failingOnce = deps(s, {
      async listShipments(...args: Parameters<PartnerClient['listShipments']>) {
        calls += 1;
        if (calls === 2) throw new PartnerServerError('Partner API failed (500)', { status: 500 });
        return real.listShipments(...args);
      },
    });

    await expect(runSyncCycle(failingOnce, 'run-1/a')).rejects.toThrow(PartnerServerError);
    // The lock went with the failure: the next run (any process) takes over.
    const resumed = await runSyncCycle(deps(s), 'run-2/b');

    expect(resumed).toMatchObject({ outcome: 'synced', listRequests: 2 });
    // Page 1 once, page 2 answered 500 once then read, page 3 once.
    expect(partnerCalls(s, since).list).toBe(3);
    for (const id of ids) expect(await s.parts.tracking.get(id), id).not.toBeNull();
  }, 60_000);

  it('lists from what the last cycle listed up to, less a minute, and finds a shipment made since', async () => {
    const time = providerClock();
    const s = await start({ workers: false, sandbox: { clock: time.clock } });
    const ids = ['7310001', '7310002', '7310003'];
    for (const id of ids) await s.store.createOrder({ id }, { sendWebhook: false });
    // The provider's times are whole seconds.
    const hourAgo = new Date(Math.floor((Date.now() - 3_600_000) / 1000) * 1000);
    s.sandbox.seedShipments({
      references: ids.slice(0, 2),
      status: 'delivered',
      createdAt: hourAgo,
    });
    const listedAfter: number[] = [];
    const real = s.partner;
    const watched = deps(s, {
      async listShipments(...args: Parameters<PartnerClient['listShipments']>) {
        listedAfter.push(args[0]?.createdAfter?.getTime() ?? Number.NaN);
        return real.listShipments(...args);
      },
    });

    expect(await runSyncCycle(watched, 'run-1/a')).toMatchObject({ adopted: 2 });
    // Made at the provider after that listing, and unknown to the connector (an answer lost).
    time.tick();
    s.sandbox.seedShipments({ references: [ids[2]!] });
    expect(await runSyncCycle(watched, 'run-2/b')).toMatchObject({ adopted: 1, listRequests: 1 });

    // Nothing open: the second window starts a minute before the newest update the first listed
    // (the provider's clock), not 15 minutes before the first cycle started (this one's).
    expect(listedAfter[1]).toBe(hourAgo.getTime() - 60_000);
  });

  it('goes on when one shipment cannot be read in detail, and tries it again next cycle', async () => {
    const { s, ids, tick } = await followed(4);
    await runSyncCycle(deps(s), 'first/a');
    tick();
    for (const id of ids.slice(0, 2)) s.sandbox.advance(id, 'shipped');
    const [poisoned, healthy] = ids;
    const real = s.partner;
    const failingFor = (reference: string) =>
      deps(s, {
        async getShipment(ref: string, options?: Parameters<PartnerClient['getShipment']>[1]) {
          if (ref === reference) {
            throw new PartnerServerError('Partner API failed (500)', { status: 500 });
          }
          return real.getShipment(ref, options);
        },
      });

    const summary = await runSyncCycle(failingFor(poisoned!), 'second/a');

    expect(summary.outcome).toBe('synced');
    expect((await s.parts.tracking.get(healthy!))?.trackingNumber).toBeDefined();
    expect((await s.parts.tracking.get(poisoned!))?.trackingNumber).toBeUndefined();
    expect(await s.parts.tracking.wantsDetail(poisoned!)).toBe(true);

    const next = await runSyncCycle(deps(s), 'third/a');
    expect(next.detailRequests).toBe(1);
    expect((await s.parts.tracking.get(poisoned!))?.trackingNumber).toBeDefined();
  });

  it('stops following shipments older than the lookback that never became final', async () => {
    const { s } = await followed(1);
    await s.parts.tracking.track('7399999', {
      orderNumber: 'PS-OLD',
      status: 'processing',
      updatedAt: '2026-01-01T10:00:00+01:00',
      updatedAtMs: Date.parse('2026-01-01T10:00:00+01:00'),
      stage: 'processing',
      createdAtMs: Date.now() - 200 * 24 * 3600_000,
    });
    expect(await s.parts.tracking.openCount()).toBe(1);

    await runSyncCycle(deps(s), 'run/a');

    // Only the shipment adopted from the list is still open; the window starts from it.
    expect(await s.parts.tracking.openCount()).toBe(1);
    const oldest = await s.parts.tracking.oldestOpenCreatedAtMs();
    expect(Date.now() - oldest!).toBeLessThan(60 * 24 * 3600_000);
  });
});

/** A provider clock set by hand (may lag the real one). */
function manualClock(startMs: number) {
  let nowMs = startMs;
  return {
    clock: () => new Date(nowMs),
    move(ms: number) {
      nowMs += ms;
    },
  };
}

describe('the sync window', () => {
  it('finds a shipment made after page 1 was read while an older one, on page 2, changed later', async () => {
    const time = manualClock(Date.now());
    const s = await start({ workers: false, sandbox: { clock: time.clock } });
    const made = '7320001';
    await s.store.createOrder({ id: made }, { sendWebhook: false });
    // Another tool's (or another store's) shipment on the same account, still with the carrier.
    s.sandbox.seedShipments({
      references: ['9900000'],
      status: 'shipped',
      createdAt: new Date(Date.now() - 3 * 3600_000),
    });
    // 200 finished ones: page 1 of the first cycle.
    s.sandbox.seedShipments({
      references: Array.from({ length: 200 }, (_, i) => String(9_910_000 + i)),
      status: 'delivered',
      createdFrom: new Date(Date.now() - 2 * 3600_000),
      createdTo: new Date(Date.now() - 3600_000),
    });
    const real = s.partner;
    const watched = deps(s, {
      async listShipments(...args: Parameters<PartnerClient['listShipments']>) {
        if (args[0]?.page === 2 && !s.sandbox.shipments().some((x) => x.reference === made)) {
          // Between the two pages: a shipment is made (its create answer lost), and two minutes
          // later (a slow page, a crash and a resume) the old one on page 2 is delivered.
          time.move(2_000);
          s.sandbox.seedShipments({ references: [made] });
          time.move(120_000);
          s.sandbox.advance('9900000', 'delivered');
        }
        return real.listShipments(...args);
      },
    });

    expect(await runSyncCycle(watched, 'run-1/a')).toMatchObject({ listRequests: 2, adopted: 0 });
    time.move(2_000);
    // The shipment made during the first cycle was not listed by it: the next must list it.
    expect(await runSyncCycle(watched, 'run-2/b')).toMatchObject({ adopted: 1 });
  }, 60_000);

  it('keeps listing an adopted open shipment when the provider clock is 5 minutes behind Shopify', async () => {
    const time = manualClock(Date.now() - 5 * 60_000);
    const s = await start({ workers: false, sandbox: { clock: time.clock } });
    const id = '7330001';
    await s.store.createOrder({ id }, { sendWebhook: false });
    // Made for the order by another tool (or the connector's record of it was lost).
    s.sandbox.seedShipments({ references: [id] });

    expect(await runSyncCycle(deps(s), 'run-1/a')).toMatchObject({ adopted: 1 });
    expect((await s.parts.tracking.get(id))?.status).toBe('pending');
    // Two minutes later (provider's clock), another shipment is listed: the list moves on.
    time.move(120_000);
    s.sandbox.seedShipments({ references: ['9920000'], status: 'delivered' });
    await runSyncCycle(deps(s), 'run-2/b');
    await runSyncCycle(deps(s), 'run-3/c');
    time.move(2_000);
    s.sandbox.advance(id, 'shipped');
    await runSyncCycle(deps(s), 'run-4/d');

    expect((await s.parts.tracking.get(id))?.status).toBe('shipped');
  }, 60_000);
});
