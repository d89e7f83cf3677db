import { describe, expect, it } from 'vitest';
import { type OrderMarksDeps, writeOrderMarks } from '../../../jobs/mark-order/write-marks.js';
import { createLogger } from '../../../src/log.js';
import type { OrderRecord } from '../../../src/records/order-records.js';
import type { TrackedShipment } from '../../../src/records/shipment-tracking.js';
import type { MetafieldEntry, MetafieldKey } from '../../../src/store/types.js';

const ID = '5551234';

/** A shipment the status sync follows, pending unless changed. */
const followed = (changes: Partial<TrackedShipment> = {}): TrackedShipment => ({
  reference: ID,
  orderNumber: 'PS-7',
  status: 'pending',
  updatedAt: '2026-11-22T10:00:00+01:00',
  updatedAtMs: Date.parse('2026-11-22T10:00:00+01:00'),
  stage: 'pending',
  createdAtMs: 0,
  ...changes,
});

/** An order's marks as an in-memory Shopify would hold them, and every write made. */
function fakeOrderMarks(
  record: Partial<OrderRecord> | null,
  followed: TrackedShipment | null = null,
  reportProgress = true,
  statusMetafields: 'unshown' | 'always' = 'unshown',
) {
  const metafields = new Map<string, string>();
  const tags = new Set<string>();
  const notes: string[] = [];
  const writes: string[] = [];
  const marked: string[] = [];
  const name = (m: MetafieldKey) => `${m.namespace}.${m.key}`;
  const deps: OrderMarksDeps = {
    records: {
      get: async (orderId) =>
        record && orderId === ID ? ({ orderId, updatedAt: '', ...record } as OrderRecord) : null,
      recordEditMarked: async (_id, fingerprint) => {
        marked.push(fingerprint);
      },
    },
    store: {
      async setOrderMetafields(_id, entries: MetafieldEntry[]) {
        writes.push('setOrderMetafields');
        for (const entry of entries) metafields.set(name(entry), entry.value);
      },
      async deleteOrderMetafields(_id, keys: MetafieldKey[]) {
        writes.push('deleteOrderMetafields');
        for (const key of keys) metafields.delete(name(key));
      },
      async addOrderTags(_id, added) {
        writes.push('addOrderTags');
        for (const tag of added) tags.add(tag);
      },
      async removeOrderTags(_id, removed) {
        writes.push('removeOrderTags');
        for (const tag of removed) tags.delete(tag);
      },
      async writeOrderMarks(_id, changes) {
        const parts = [
          ...(changes.setMetafields?.length ? ['set'] : []),
          ...(changes.deleteMetafields?.length ? ['delete'] : []),
          ...(changes.addTags?.length ? ['tagsAdd'] : []),
          ...(changes.removeTags?.length ? ['tagsRemove'] : []),
        ];
        // Like the client: nothing to change, nothing sent.
        if (parts.length === 0) return;
        writes.push(`writeOrderMarks(${parts.join(',')})`);
        for (const entry of changes.setMetafields ?? []) metafields.set(name(entry), entry.value);
        for (const key of changes.deleteMetafields ?? []) metafields.delete(name(key));
        for (const tag of changes.addTags ?? []) tags.add(tag);
        for (const tag of changes.removeTags ?? []) tags.delete(tag);
      },
      async readOrderMarks() {
        writes.push('readOrderMarks');
        return {
          tags: [...tags].filter((tag) => tag.startsWith('shipment-')),
          orderNumber: metafields.get('partner_shipment.order_number') ?? null,
          error: metafields.has('partner_shipment.error'),
        };
      },
      async appendOrderNote(_id, text) {
        writes.push('appendOrderNote');
        notes.push(text);
      },
    },
    tracking: {
      get: async (reference) => (followed && reference === ID ? { ...followed } : null),
      labels: async () => ({}),
      saveShopifySide: async (_reference, side) => {
        if (followed) Object.assign(followed, side);
      },
    },
    settings: { sync: { reportProgress, statusMetafields } },
    logger: createLogger({ level: 'silent' }),
  };
  const seed = (entries: Record<string, string>, seedTags: string[] = []) => {
    for (const [key, value] of Object.entries(entries)) metafields.set(key, value);
    for (const tag of seedTags) tags.add(tag);
  };
  return { deps, metafields, tags, notes, writes, marked, seed };
}

describe('writeOrderMarks', () => {
  it('registered: writes the order number, no status (the tag and number show it), and clears an earlier refusal with its status', async () => {
    const fake = fakeOrderMarks({
      state: 'registered',
      orderNumber: 'PS-7',
      partnerStatus: 'pending',
    });
    fake.seed({ 'partner_shipment.status': 'error', 'partner_shipment.error': 'no postal code' }, [
      'shipment-error',
    ]);

    expect(await writeOrderMarks(ID, 'registered', fake.deps)).toBe('written');

    expect(Object.fromEntries(fake.metafields)).toEqual({
      'partner_shipment.order_number': 'PS-7',
    });
    expect([...fake.tags]).toEqual(['shipment-registered']);
  });

  it('registered: no status metafields for a status Shopify is to show (shipped, to be fulfilled)', async () => {
    const fake = fakeOrderMarks(
      { state: 'registered', orderNumber: 'PS-7', partnerStatus: 'pending' },
      followed({ status: 'shipped', stage: 'shipped', carrier: 'GLS', trackingNumber: '77' }),
    );

    expect(await writeOrderMarks(ID, 'registered', fake.deps)).toBe('written');

    expect(Object.fromEntries(fake.metafields)).toEqual({
      'partner_shipment.order_number': 'PS-7',
    });
  });

  it('registered: writes the status the sync knows, never an older one, on an order whose status metafields it keeps', async () => {
    const fake = fakeOrderMarks(
      { state: 'registered', orderNumber: 'PS-7', partnerStatus: 'pending' },
      followed({
        status: 'shipped',
        stage: 'shipped',
        carrier: 'GLS',
        trackingNumber: '77',
        // An earlier status went into the metafields (as every registration once wrote it).
        writtenStatus: 'older',
      }),
    );
    fake.seed({ 'partner_shipment.status': 'error', 'partner_shipment.error': 'no postal code' });

    expect(await writeOrderMarks(ID, 'registered', fake.deps)).toBe('written');

    expect(fake.metafields.has('partner_shipment.error')).toBe(false);
    expect(fake.metafields.get('partner_shipment.status')).toBe('shipped');
    expect(fake.metafields.get('partner_shipment.status_label')).toBe('Handed to carrier');
    expect(fake.metafields.get('partner_shipment.order_number')).toBe('PS-7');
    expect(fake.metafields.get('partner_shipment.tracking_number')).toBe('77');
  });

  it('registered: one request for everything the order lacks, as registration saw it', async () => {
    const fake = fakeOrderMarks({
      state: 'registered',
      orderNumber: 'PS-7',
      partnerStatus: 'pending',
    });
    fake.seed({ 'partner_shipment.error': 'no postal code' }, ['shipment-error']);

    await writeOrderMarks(ID, 'registered', fake.deps, {
      tags: ['shipment-error'],
      orderNumber: null,
      error: true,
    });

    expect(fake.writes).toEqual(['writeOrderMarks(set,delete,tagsAdd,tagsRemove)']);
    expect([...fake.tags]).toEqual(['shipment-registered']);
    expect(fake.metafields.has('partner_shipment.error')).toBe(false);
  });

  it('registered: only the missing parts, and no delete or untag on an order never refused', async () => {
    const fake = fakeOrderMarks({
      state: 'registered',
      orderNumber: 'PS-7',
      partnerStatus: 'pending',
    });

    await writeOrderMarks(ID, 'registered', fake.deps, {
      tags: [],
      orderNumber: null,
      error: false,
    });

    expect(fake.writes).toEqual(['writeOrderMarks(set,tagsAdd)']);
  });

  it('registered: the status metafields for a status Shopify cannot show (processing, progress reports off)', async () => {
    const fake = fakeOrderMarks(
      { state: 'registered', orderNumber: 'PS-7', partnerStatus: 'pending' },
      followed({ status: 'processing', stage: 'processing' }),
      false,
    );

    await writeOrderMarks(ID, 'registered', fake.deps, {
      tags: [],
      orderNumber: null,
      error: false,
    });

    expect(fake.writes).toEqual(['writeOrderMarks(set,tagsAdd)']);
    expect(fake.metafields.get('partner_shipment.status')).toBe('processing');
    expect(fake.metafields.get('partner_shipment.status_label')).toBe('Being prepared');
  });

  it('registered: with SYNC_STATUS_METAFIELDS=always, the status too, in the same request', async () => {
    const pending = followed();
    const marks = { tags: [], orderNumber: null, error: false };
    const unshown = fakeOrderMarks({ state: 'registered', orderNumber: 'PS-7' }, { ...pending });
    const always = fakeOrderMarks(
      { state: 'registered', orderNumber: 'PS-7' },
      { ...pending },
      true,
      'always',
    );

    await writeOrderMarks(ID, 'registered', unshown.deps, marks);
    await writeOrderMarks(ID, 'registered', always.deps, marks);

    expect(unshown.metafields.has('partner_shipment.status')).toBe(false);
    expect(always.writes).toEqual(['writeOrderMarks(set,tagsAdd)']);
    expect(always.metafields.get('partner_shipment.status')).toBe('pending');
    expect(always.metafields.get('partner_shipment.order_number')).toBe('PS-7');
  });

  it('registered: the marks in one request, no status while pending, then nothing once all is there', async () => {
    const fake = fakeOrderMarks(
      { state: 'registered', orderNumber: 'PS-7', partnerStatus: 'pending' },
      followed(),
    );

    await writeOrderMarks(ID, 'registered', fake.deps, {
      tags: [],
      orderNumber: null,
      error: false,
    });
    expect(fake.writes).toEqual(['writeOrderMarks(set,tagsAdd)']);
    expect(Object.fromEntries(fake.metafields)).toEqual({
      'partner_shipment.order_number': 'PS-7',
    });

    // Run again without being told: it reads the marks (one cheap query) and writes nothing.
    fake.writes.length = 0;
    await writeOrderMarks(ID, 'registered', fake.deps);
    expect(fake.writes).toEqual(['readOrderMarks']);
  });

  it("registered: reads the order's marks when not handed them, and writes only what differs", async () => {
    const fake = fakeOrderMarks({
      state: 'registered',
      orderNumber: 'PS-7',
      partnerStatus: 'pending',
    });
    fake.seed({ 'partner_shipment.order_number': 'PS-7', 'partner_shipment.status': 'pending' });

    await writeOrderMarks(ID, 'registered', fake.deps);

    expect(fake.writes).toEqual(['readOrderMarks', 'writeOrderMarks(tagsAdd)']);
    expect([...fake.tags]).toEqual(['shipment-registered']);
  });

  it('registered: writes nothing when the record is not registered (a stale job)', async () => {
    const fake = fakeOrderMarks({ state: 'failed', reason: 'no postal code' });

    expect(await writeOrderMarks(ID, 'registered', fake.deps)).toBe('stale');
    expect(fake.writes).toEqual([]);
  });

  it('failed: writes the reason and the error tag', async () => {
    const fake = fakeOrderMarks({
      state: 'failed',
      reason: 'receiver.address.postal_code: missing',
    });

    expect(await writeOrderMarks(ID, 'failed', fake.deps)).toBe('written');

    expect(Object.fromEntries(fake.metafields)).toEqual({
      'partner_shipment.status': 'error',
      'partner_shipment.error': 'receiver.address.postal_code: missing',
    });
    expect([...fake.tags]).toEqual(['shipment-error']);
  });

  it('failed: the reason and the tag in one request; no tag when the order has it already', async () => {
    const fake = fakeOrderMarks({ state: 'failed', reason: 'no postal code' });

    await writeOrderMarks(ID, 'failed', fake.deps, { tags: [], orderNumber: null, error: false });
    await writeOrderMarks(ID, 'failed', fake.deps, {
      tags: ['shipment-error'],
      orderNumber: null,
      error: true,
    });

    expect(fake.writes).toEqual(['writeOrderMarks(set,tagsAdd)', 'writeOrderMarks(set)']);
  });

  it('failed: writes nothing once the order registered meanwhile', async () => {
    const fake = fakeOrderMarks({ state: 'registered', orderNumber: 'PS-7' });

    expect(await writeOrderMarks(ID, 'failed', fake.deps)).toBe('stale');
    expect(fake.writes).toEqual([]);
  });

  it('cancelled after registration: tags the order and tells staff which shipment to cancel', async () => {
    const fake = fakeOrderMarks({
      state: 'registered',
      orderNumber: 'PS-7',
      cancelledAfterRegistrationAt: '2026-11-22T10:00:00.000Z',
    });

    expect(await writeOrderMarks(ID, 'cancelled_after_registration', fake.deps)).toBe('written');

    expect([...fake.tags]).toEqual(['shipment-cancel-at-provider']);
    expect(fake.notes).toEqual([
      'Cancelled after shipment PS-7 was registered with the provider. The API cannot cancel it: ask the provider to cancel it.',
    ]);
  });

  it('cancelled after registration: writes nothing when the order was never flagged', async () => {
    const fake = fakeOrderMarks({ state: 'registered', orderNumber: 'PS-7' });

    expect(await writeOrderMarks(ID, 'cancelled_after_registration', fake.deps)).toBe('stale');
    expect(fake.writes).toEqual([]);
  });

  it('cancelled after a refusal: removes the error marks, since nothing is left to fix', async () => {
    const fake = fakeOrderMarks({
      state: 'skipped',
      skipCode: 'cancelled',
      reason: 'Order is cancelled.',
    });
    fake.seed({ 'partner_shipment.status': 'error', 'partner_shipment.error': 'no postal code' }, [
      'shipment-error',
      'vip',
    ]);

    expect(await writeOrderMarks(ID, 'cancelled_after_failure', fake.deps)).toBe('written');

    expect(fake.metafields.size).toBe(0);
    expect([...fake.tags]).toEqual(['vip']);
  });

  it('cancelled after a refusal: writes nothing while the order is skipped for another reason', async () => {
    const fake = fakeOrderMarks({
      state: 'skipped',
      skipCode: 'unpaid',
      reason: 'Order is not paid.',
    });

    expect(await writeOrderMarks(ID, 'cancelled_after_failure', fake.deps)).toBe('stale');
    expect(fake.writes).toEqual([]);
  });

  it('order edited: tags the order and says what changed and when, never the values', async () => {
    const fake = fakeOrderMarks({
      state: 'registered',
      orderNumber: 'PS-7',
      editReportedFingerprint: 'receiver=aaaa;lines=bbbb;weights=cccc',
      editReportedChanges: 'receiver,weights',
      editReportedAt: '2026-11-22T10:00:00.000Z',
    });

    expect(await writeOrderMarks(ID, 'order_edited', fake.deps)).toBe('written');

    expect([...fake.tags]).toEqual(['shipment-order-edited']);
    expect(fake.notes).toEqual([
      'Edited after shipment PS-7 was registered with the provider (noticed 2026-11-22T10:00:00.000Z): the receiver (name, address or phone) and the weights changed. The API cannot update a shipment: tell the provider.',
    ]);
    expect(fake.marked).toEqual(['receiver=aaaa;lines=bbbb;weights=cccc']);
  });

  it('order edited: writes nothing when no edit was reported', async () => {
    const fake = fakeOrderMarks({ state: 'registered', orderNumber: 'PS-7' });

    expect(await writeOrderMarks(ID, 'order_edited', fake.deps)).toBe('stale');
    expect(fake.writes).toEqual([]);
  });

  it('writes nothing for an order with no record', async () => {
    const fake = fakeOrderMarks(null);

    for (const kind of ['registered', 'failed', 'cancelled_after_registration'] as const) {
      expect(await writeOrderMarks(ID, kind, fake.deps)).toBe('stale');
    }
    expect(fake.writes).toEqual([]);
  });
});
