import { describe, expect, it } from 'vitest';
import { applyReport } from '../../../jobs/sync-shipments/reports.js';
import {
  PROVIDER_TIME_MARGIN_MS,
  SYNC_OVERLAP_MS,
  windowStartMs,
} from '../../../jobs/sync-shipments/window.js';
import type { TrackedShipment } from '../../../src/records/shipment-tracking.js';

const T1 = '2026-11-20T10:00:00+01:00';
const T2 = '2026-11-20T12:00:00+01:00';
const T3 = '2026-11-21T09:30:00+01:00';

function known(over: Partial<TrackedShipment> = {}): TrackedShipment {
  return {
    reference: '5550001',
    orderNumber: 'PS-1',
    status: 'pending',
    updatedAt: T1,
    updatedAtMs: Date.parse(T1),
    stage: 'pending',
    createdAtMs: Date.parse(T1),
    ...over,
  };
}

const listed = (status: string, updatedAt: string) => ({
  reference: '5550001',
  orderNumber: 'PS-1',
  status,
  updatedAt,
});

describe('applyReport', () => {
  it('changes nothing for a report seen before', () => {
    expect(applyReport(known(), listed('pending', T1), {}, 0)).toBeNull();
  });

  it('needs no detail read for a shipment not yet with a carrier', () => {
    const result = applyReport(known(), listed('processing', T2), {}, 0);
    expect(result?.side).toMatchObject({ status: 'processing', stage: 'processing' });
    expect(result?.needsDetail).toBe(false);
  });

  it('needs a detail read once shipped without a number, and not after it', () => {
    const shipped = applyReport(known(), listed('shipped', T2), {}, 0);
    expect(shipped?.needsDetail).toBe(true);
    const read = applyReport(
      known({ ...shipped!.side }),
      { ...listed('shipped', T2), detail: { carrier: 'PostNord', trackingNumber: '00370' } },
      {},
      0,
    );
    expect(read?.side).toMatchObject({ trackingNumber: '00370', trackingReadAt: T2 });
    expect(read?.needsDetail).toBe(false);
  });

  it('needs another read when a shipped shipment changes again (its number may have)', () => {
    const shipped = known({
      status: 'shipped',
      stage: 'shipped',
      updatedAt: T2,
      updatedAtMs: Date.parse(T2),
      trackingNumber: '00370',
      trackingReadAt: T2,
    });
    expect(applyReport(shipped, listed('shipped', T3), {}, 0)?.needsDetail).toBe(true);
  });

  it('takes delivery from the list when the number is known, at the time reported', () => {
    const shipped = known({
      status: 'shipped',
      stage: 'shipped',
      updatedAt: T2,
      updatedAtMs: Date.parse(T2),
      trackingNumber: '00370',
      trackingReadAt: T2,
    });
    const result = applyReport(shipped, listed('delivered', T3), {}, 0);
    expect(result?.side).toMatchObject({ stage: 'delivered', deliveredAt: T3 });
    expect(result?.needsDetail).toBe(false);
  });

  it('reads a delivered shipment whose number was never seen', () => {
    expect(applyReport(known(), listed('delivered', T3), {}, 0)?.needsDetail).toBe(true);
  });

  it('keeps the stage for an unknown status and reads its label once', () => {
    const first = applyReport(known(), listed('held_at_customs', T2), {}, 0);
    expect(first?.side).toMatchObject({ status: 'held_at_customs', stage: 'pending' });
    expect(first?.needsDetail).toBe(true);
    const labelled = applyReport(
      known(),
      listed('held_at_customs', T2),
      { held_at_customs: 'Held at customs' },
      0,
    );
    expect(labelled?.needsDetail).toBe(false);
  });

  it('refuses an out-of-order report', () => {
    const delivered = known({
      status: 'delivered',
      stage: 'delivered',
      updatedAt: T3,
      updatedAtMs: Date.parse(T3),
    });
    expect(applyReport(delivered, listed('shipped', T2), {}, 0)).toBeNull();
  });

  it('gives a new shipment the creation time it is handed', () => {
    expect(applyReport(null, listed('pending', T1), {}, 1234)?.side.createdAtMs).toBe(1234);
  });
});

describe('windowStartMs', () => {
  const DAY = 24 * 3600_000;
  const now = Date.parse('2026-11-22T12:00:00Z');

  it('reads the whole lookback when nothing is known', () => {
    expect(
      windowStartMs({
        nowMs: now,
        lookbackDays: 60,
        oldestOpenCreatedAtMs: undefined,
        lastCycle: {},
      }),
    ).toBe(now - 60 * DAY);
  });

  it('starts at the older of the oldest open shipment and what the last cycle listed up to, less the provider margin', () => {
    const lastCycle = { startedAtMs: now - 300_000, listedUntilMs: now - 290_000 };
    expect(
      windowStartMs({
        nowMs: now,
        lookbackDays: 60,
        oldestOpenCreatedAtMs: now - 3 * DAY,
        lastCycle,
      }),
    ).toBe(now - 3 * DAY - PROVIDER_TIME_MARGIN_MS);
    expect(
      windowStartMs({ nowMs: now, lookbackDays: 60, oldestOpenCreatedAtMs: undefined, lastCycle }),
    ).toBe(now - 290_000 - PROVIDER_TIME_MARGIN_MS);
  });

  it("takes the last cycle's start with the clock overlap when it listed nothing", () => {
    expect(
      windowStartMs({
        nowMs: now,
        lookbackDays: 60,
        oldestOpenCreatedAtMs: now - 60_000,
        lastCycle: { startedAtMs: now - 300_000 },
      }),
    ).toBe(now - 300_000 - SYNC_OVERLAP_MS);
  });

  it('never reaches back further than the lookback', () => {
    expect(
      windowStartMs({
        nowMs: now,
        lookbackDays: 60,
        oldestOpenCreatedAtMs: now - 400 * DAY,
        lastCycle: { startedAtMs: now - 300_000 },
      }),
    ).toBe(now - 60 * DAY);
  });
});
