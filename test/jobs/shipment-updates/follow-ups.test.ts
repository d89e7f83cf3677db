import { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import {
  pendingUpdates,
  queueShipmentUpdates,
  statusMetafieldsDue,
  statusVersion,
} from '../../../jobs/shipment-updates/follow-ups.js';
import { updateJobId } from '../../../jobs/shipment-updates/updates.js';
import type { TrackedShipment } from '../../../src/records/shipment-tracking.js';
import { shipmentStacks, waitUntil } from '../../helpers/shipment-stack.js';

const base: TrackedShipment = {
  reference: '1001',
  orderNumber: '#1001',
  status: 'registered',
  updatedAt: '2026-11-26T10:00:00Z',
  updatedAtMs: Date.parse('2026-11-26T10:00:00Z'),
  stage: 'pending',
  createdAtMs: Date.parse('2026-11-26T10:00:00Z'),
};
const written = (shipment: TrackedShipment): TrackedShipment => ({
  ...shipment,
  writtenStatus: statusVersion(shipment),
});
const later = (shipment: TrackedShipment, changes: Partial<TrackedShipment>): TrackedShipment => ({
  ...shipment,
  updatedAt: '2026-11-26T11:00:00Z',
  updatedAtMs: Date.parse('2026-11-26T11:00:00Z'),
  ...changes,
});
const kinds = (shipment: TrackedShipment, reportProgress = true) =>
  pendingUpdates(shipment, { reportProgress, statusMetafields: 'unshown' }).map((u) => u.update);

describe('pendingUpdates: one request per change, the status riding along', () => {
  it('asks nothing of a shipment whose status is written', () => {
    expect(kinds(written(base))).toEqual([]);
  });

  it('writes a new status on its own when nothing else is due', () => {
    expect(kinds(later(written(base), { status: 'on_hold' }))).toEqual(['status']);
  });

  it('leaves the status to the progress report, or writes it alone when reports are off', () => {
    const processing = later(written(base), { status: 'processing', stage: 'processing' });
    expect(kinds(processing)).toEqual(['progress']);
    expect(kinds(processing, false)).toEqual(['status']);
  });

  it('leaves the status to the fulfilment, then to the delivered event', () => {
    const shipped = later(written(base), {
      status: 'shipped',
      stage: 'shipped',
      trackingNumber: 'TN1',
    });
    expect(kinds(shipped)).toEqual(['fulfil']);
    const delivered = later(written({ ...shipped, fulfilledNumber: 'TN1' }), {
      status: 'delivered',
      stage: 'delivered',
      updatedAt: '2026-11-27T09:00:00Z',
      updatedAtMs: Date.parse('2026-11-27T09:00:00Z'),
    });
    expect(kinds(delivered)).toEqual(['delivery']);
  });
});

describe('statusMetafieldsDue: only where Shopify cannot show the status, then kept current', () => {
  const fresh = { ...base, status: 'pending' };
  const due = (shipment: TrackedShipment, reportProgress = true, shown?: boolean) =>
    statusMetafieldsDue(
      shipment,
      { reportProgress, statusMetafields: 'unshown' },
      shown === undefined ? {} : { shown },
    );
  const at = (changes: Partial<TrackedShipment>) => later(fresh, changes);

  it('writes every status with SYNC_STATUS_METAFIELDS=always, once each', () => {
    const always = { reportProgress: true, statusMetafields: 'always' } as const;
    const shipped = at({ status: 'shipped', stage: 'shipped', trackingNumber: 'TN1' });
    expect(statusMetafieldsDue(fresh, always)).toBe(true);
    expect(statusMetafieldsDue(shipped, always)).toBe(true);
    expect(statusMetafieldsDue(written(shipped), always)).toBe(false);
    expect(pendingUpdates(at({ status: 'pending' }), always).map((u) => u.update)).toEqual([
      'status',
    ]);
  });

  it('writes none for a status Shopify shows on its own', () => {
    expect(due(fresh)).toBe(false);
    expect(due(at({ status: 'processing', stage: 'processing' }))).toBe(false);
    const shipped = at({ status: 'shipped', stage: 'shipped', trackingNumber: 'TN1' });
    expect(due(shipped)).toBe(false);
    expect(kinds(shipped)).toEqual(['fulfil']);
    expect(due({ ...shipped, status: 'delivered', stage: 'delivered' })).toBe(false);
    expect(due(at({ status: 'cancelled', stage: 'cancelled' }))).toBe(false);
    expect(kinds(at({ status: 'cancelled', stage: 'cancelled' }))).toEqual(['cancelled']);
  });

  it('writes them for a status Shopify cannot show', () => {
    // Beyond the contract's statuses.
    expect(kinds(at({ status: 'on_hold' }))).toEqual(['status']);
    // Processing with progress reports off, or nothing that could be reported.
    const processing = at({ status: 'processing', stage: 'processing' });
    expect(kinds(processing, false)).toEqual(['status']);
    expect(due(processing, true, false)).toBe(true);
    // Shipped without a number, or with nothing left to fulfil; delivered likewise.
    expect(kinds(at({ status: 'shipped', stage: 'shipped' }))).toEqual(['status']);
    const unfulfillable = at({
      status: 'delivered',
      stage: 'delivered',
      trackingNumber: 'TN1',
      unfulfillableNumber: 'TN1',
    });
    expect(kinds(unfulfillable)).toEqual(['status']);
    expect(due({ ...unfulfillable, unfulfillableNumber: undefined }, true, false)).toBe(true);
  });

  it('keeps them current once the order has them, riding with the write that shows the status', () => {
    const shipped = later(written(at({ status: 'on_hold' })), {
      status: 'shipped',
      stage: 'shipped',
      trackingNumber: 'TN1',
      updatedAt: '2026-11-26T12:00:00Z',
      updatedAtMs: Date.parse('2026-11-26T12:00:00Z'),
    });
    expect(due(shipped)).toBe(true);
    expect(kinds(shipped)).toEqual(['fulfil']);
    expect(due(written(shipped))).toBe(false);
  });
});

describe('queueShipmentUpdates when the write carrying the status failed', () => {
  const start = shipmentStacks();

  it('queues the status on its own, so staff still see it', async () => {
    const s = await start({ workers: false });
    const reference = '5550001';
    await s.context.tracking.track(reference, {
      orderNumber: '#1001',
      status: 'delivered',
      updatedAt: '2026-11-26T11:00:00Z',
      updatedAtMs: Date.parse('2026-11-26T11:00:00Z'),
      stage: 'delivered',
      createdAtMs: Date.parse('2026-11-26T10:00:00Z'),
    });
    await s.context.tracking.saveShopifySide(reference, { fulfilledNumber: 'TN1' });
    const shipment = (await s.context.tracking.get(reference))!;
    const withNumber = { ...shipment, trackingNumber: 'TN1', fulfilledNumber: 'TN1' };
    expect(kinds(withNumber)).toEqual(['delivery']);

    // The delivered event's job failed for good (a Shopify refusal, say).
    const queue = s.queues.recordDelivery;
    await queue.add(
      'record-delivery',
      { reference },
      {
        jobId: updateJobId('delivery', { reference }),
        attempts: 1,
      },
    );
    const worker = new Worker(
      queue.name,
      async () => {
        throw new Error('refused');
      },
      { connection: s.redis, prefix: queue.opts.prefix },
    );
    await waitUntil(async () => (await queue.getFailedCount()) === 1, { what: 'the job to fail' });
    await worker.close();

    await queueShipmentUpdates(s.context, withNumber);
    const status = await s.queues.writeShipmentStatus.getJob(
      updateJobId('status', { reference, version: statusVersion(withNumber) }),
    );
    expect(status).toBeDefined();
  });
});
