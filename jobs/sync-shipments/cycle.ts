import type { Logger } from '../../src/log.js';
import { PartnerNotFoundError } from '../../src/partner/errors.js';
import type { ListItem, TrackingRecord } from '../../src/partner/schemas.js';
import { parsePartnerTimestamp } from '../../src/partner/time.js';
import type { TrackedShipment } from '../../src/records/shipment-tracking.js';
import type { JobContext } from '../context.js';
import { queueShipmentUpdates } from '../shipment-updates/follow-ups.js';
import { applyReport, type ShipmentReport } from './reports.js';
import { windowStartMs } from './window.js';

/** The provider's largest page: the fewest list requests per cycle. */
export const SYNC_PAGE_SIZE = 200;

export type SyncDeps = Pick<
  JobContext,
  'tracking' | 'records' | 'partner' | 'store' | 'queueOf' | 'settings'
> & { logger: Logger; now?: () => number };

export interface SyncSummary {
  outcome: 'synced' | 'skipped';
  reason?: string;
  listRequests: number;
  detailRequests: number;
  /** List items read (a shipment listed on two pages counts twice). */
  itemsRead: number;
  changed: number;
  adopted: number;
  /** Listed shipments whose reference is no order of this store. */
  foreign: number;
  shopifyUpdatesQueued: number;
}

/**
 * One run of the status sync. It holds the sync's lock for its whole run, so runs never overlap
 * in any process; it keeps its place (the cursor) after every page, so a run cut short (a budget
 * wait, a crash, a deploy) resumes at the page it was on.
 *
 * A cycle reads every page of `GET /shipments?created_after=…`, newest first. Shipments created
 * while it pages go in at the front, so later pages move back: an item may be read twice, but
 * none is skipped, and the ones created meanwhile fall in the next cycle's window (which reaches
 * back to this cycle's start). Then it reads in detail only the shipments whose tracking is
 * needed and not known.
 */
export async function runSyncCycle(deps: SyncDeps, holder: string): Promise<SyncSummary> {
  const now = deps.now ?? Date.now;
  const lockMs = Math.max(10 * 60_000, 2 * deps.settings.sync.intervalMs);
  const summary: SyncSummary = {
    outcome: 'synced',
    listRequests: 0,
    detailRequests: 0,
    itemsRead: 0,
    changed: 0,
    adopted: 0,
    foreign: 0,
    shopifyUpdatesQueued: 0,
  };
  if (!(await deps.tracking.holdLock(holder, lockMs))) {
    return { ...summary, outcome: 'skipped', reason: 'another sync run is in progress' };
  }

  let cursor = await deps.tracking.cursor();
  if (!cursor) {
    const startedAtMs = now();
    const start = windowStartMs({
      nowMs: startedAtMs,
      lookbackDays: deps.settings.sync.lookbackDays,
      oldestOpenCreatedAtMs: await deps.tracking.oldestOpenCreatedAtMs(),
      lastCycleStartedAtMs: await deps.tracking.lastCycleStartedAtMs(),
    });
    cursor = { windowStart: new Date(start).toISOString(), page: 1, startedAtMs };
    await deps.tracking.saveCursor(cursor);
  } else {
    deps.logger.info({ page: cursor.page }, 'resuming the sync cycle where it stopped');
  }

  const labels = await deps.tracking.labels();
  for (;;) {
    const answer = await deps.partner.listShipments(
      { createdAfter: new Date(cursor.windowStart), perPage: SYNC_PAGE_SIZE, page: cursor.page },
      { priority: 'sync' },
    );
    summary.listRequests += 1;
    summary.itemsRead += answer.data.length;
    await applyListPage(deps, answer.data, labels, summary, Date.parse(cursor.windowStart));
    // The total of the latest page: it grows when shipments are created while we page.
    const perPage = answer.meta.per_page > 0 ? answer.meta.per_page : SYNC_PAGE_SIZE;
    if (answer.data.length === 0 || cursor.page * perPage >= answer.meta.total) break;
    cursor = { ...cursor, page: cursor.page + 1 };
    await deps.tracking.saveCursor(cursor);
    await deps.tracking.holdLock(holder, lockMs);
  }

  await readDetails(deps, labels, summary, () => deps.tracking.holdLock(holder, lockMs));
  await deps.tracking.finishCycle(cursor.startedAtMs);
  await deps.tracking.releaseLock(holder);
  deps.logger.info({ ...summary, windowStart: cursor.windowStart }, 'sync cycle done');
  return summary;
}

/** Applies one list page: what moved is saved and its Shopify writes queued; the unknown adopted. */
async function applyListPage(
  deps: SyncDeps,
  items: readonly ListItem[],
  labels: Readonly<Record<string, string>>,
  summary: SyncSummary,
  listedAfterMs: number,
): Promise<void> {
  const known = await deps.tracking.getMany(items.map((item) => item.reference));
  const unknown: ListItem[] = [];
  for (const [i, item] of items.entries()) {
    const shipment = known[i];
    if (!shipment) {
      unknown.push(item);
      continue;
    }
    await applyAndQueue(deps, shipment, toReport(item), labels, summary, shipment.createdAtMs);
  }
  if (unknown.length > 0) await adopt(deps, unknown, labels, summary, listedAfterMs);
}

/**
 * Shipments the connector has no record of: registered before it was installed, or their record
 * lost. One that belongs to an order of this store is followed from now on; the others are noted
 * (for the drift report) and left alone.
 */
async function adopt(
  deps: SyncDeps,
  items: readonly ListItem[],
  labels: Readonly<Record<string, string>>,
  summary: SyncSummary,
  listedAfterMs: number,
): Promise<void> {
  const foreign: string[] = [];
  const toAsk: ListItem[] = [];
  const createdAt = new Map<string, number>();
  for (const item of items) {
    if (!/^\d{1,20}$/.test(item.reference) || (await deps.tracking.isForeign(item.reference))) {
      foreign.push(item.reference);
      continue;
    }
    const record = await deps.records.get(item.reference);
    const registeredAt = record?.partnerCreatedAt ?? record?.registeredAt;
    const ms = registeredAt ? parsePartnerTimestamp(registeredAt)?.getTime() : undefined;
    if (record?.state === 'registered' && ms !== undefined) createdAt.set(item.reference, ms);
    else toAsk.push(item);
  }
  if (toAsk.length > 0) {
    const orders = await deps.store.findOrders(toAsk.map((item) => item.reference));
    for (const item of toAsk) {
      const order = orders.get(item.reference);
      // Its shipment was created after the order and after this cycle's created_after: the
      // later of the two is still no later than the shipment's creation, so the window keeps it.
      const ms = order ? Math.max(Date.parse(order.createdAt), listedAfterMs) : Number.NaN;
      if (Number.isFinite(ms)) createdAt.set(item.reference, ms);
      else foreign.push(item.reference);
    }
  }
  for (const item of items) {
    const ms = createdAt.get(item.reference);
    if (ms === undefined) continue;
    if (await applyAndQueue(deps, null, toReport(item), labels, summary, ms)) summary.adopted += 1;
  }
  await deps.tracking.noteForeign(foreign);
  summary.foreign += foreign.length;
}

/** Reads in detail the shipments that need it: carrier, tracking number, label, delivery time. */
async function readDetails(
  deps: SyncDeps,
  labels: Record<string, string>,
  summary: SyncSummary,
  keepLock: () => Promise<boolean>,
): Promise<void> {
  for (;;) {
    const references = await deps.tracking.needingDetail();
    if (references.length === 0) return;
    for (const reference of references) {
      const known = await deps.tracking.get(reference);
      if (known) await readDetail(deps, known, labels, summary);
      // Read once per change: wanting it again takes a newer change, seen in a later list.
      await deps.tracking.detailDone(reference);
      await keepLock();
    }
  }
}

async function readDetail(
  deps: SyncDeps,
  known: TrackedShipment,
  labels: Record<string, string>,
  summary: SyncSummary,
): Promise<void> {
  let record: TrackingRecord;
  try {
    summary.detailRequests += 1;
    record = await deps.partner.getShipment(known.reference, { priority: 'sync' });
  } catch (error) {
    // Listed a moment ago, gone now: nothing to read; the next list says what became of it.
    if (error instanceof PartnerNotFoundError) {
      deps.logger.warn({ reference: known.reference }, 'a listed shipment could not be read');
      return;
    }
    throw error;
  }
  if (labels[record.status] !== record.status_label) {
    labels[record.status] = record.status_label;
    await deps.tracking.learnLabel(record.status, record.status_label);
  }
  await applyAndQueue(deps, known, detailReport(record), labels, summary, known.createdAtMs);
}

function toReport(item: ListItem): ShipmentReport {
  return {
    reference: item.reference,
    orderNumber: item.order_number,
    status: item.status,
    updatedAt: item.updated_at,
  };
}

function detailReport(record: TrackingRecord): ShipmentReport {
  const delivered = record.history.findLast((entry) => entry.status === 'delivered');
  return {
    ...toReport(record),
    detail: {
      carrier: record.carrier,
      trackingNumber: record.tracking_number,
      ...(delivered ? { deliveredAt: delivered.occurred_at } : {}),
    },
  };
}

/**
 * Saves what the report changes and queues the Shopify writes that follow. The save succeeds
 * only if the shipment is still as read; otherwise (another writer was faster) it reads again.
 */
async function applyAndQueue(
  deps: SyncDeps,
  known: TrackedShipment | null,
  report: ShipmentReport,
  labels: Readonly<Record<string, string>>,
  summary: SyncSummary,
  createdAtMs: number,
): Promise<boolean> {
  let current = known;
  for (let tries = 0; tries < 3; tries += 1) {
    const next = applyReport(current, report, labels, createdAtMs);
    if (!next) return false;
    // A detail read is the freshest there is: it never asks for another of itself.
    const needsDetail = report.detail ? false : next.needsDetail;
    if (
      await deps.tracking.saveProviderSide(
        report.reference,
        current?.updatedAtMs,
        next.side,
        needsDetail,
      )
    ) {
      summary.changed += 1;
      // A detail read to come may bring the tracking: Shopify is written once, after it.
      if (needsDetail) return true;
      const shipment = await deps.tracking.get(report.reference);
      if (shipment) summary.shopifyUpdatesQueued += await queueShipmentUpdates(deps, shipment);
      return true;
    }
    current = await deps.tracking.get(report.reference);
  }
  throw new Error(`Shipment ${report.reference} kept changing while it was synced`);
}
