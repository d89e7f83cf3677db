import { describe, expect, it } from 'vitest';
import { runSyncCycle, type SyncDeps } from '../../../jobs/sync-shipments/cycle.js';
import type { PartnerClient } from '../../../src/partner/client.js';
import { type ShipmentStack, shipmentStacks } from '../../helpers/shipment-stack.js';

const start = shipmentStacks();

function deps(s: ShipmentStack, partner: Partial<PartnerClient> = {}): SyncDeps {
  const real = s.partner;
  return {
    ...s.context,
    partner: Object.assign(Object.create(real) as PartnerClient, partner),
    logger: s.logger,
  };
}

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
