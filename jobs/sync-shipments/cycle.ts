import {
  PartnerAuthError,
  PartnerError,
  PartnerNotFoundError,
  PartnerUrlMisconfiguredError,
  PartnerWaitError,
} from '../../src/partner/errors.js';
import type { ListItem, TrackingRecord } from '../../src/partner/schemas.js';
import { parsePartnerTimestamp } from '../../src/partner/time.js';
import type { TrackedShipment } from '../../src/records/shipment-tracking.js';
import type { JobContext } from '../context.js';
import { pendingUpdates, queueShipmentUpdates } from '../shipment-updates/follow-ups.js';
import { applyReport, type ShipmentReport, wantsDetail } from './reports.js';
import { SYNC_OVERLAP_MS, windowStartMs } from './window.js';

/** The provider's largest page: the fewest list requests per cycle. */
export const SYNC_PAGE_SIZE = 200;

export type SyncDeps = Pick<
  JobContext,
  'tracking' | 'records' | 'partner' | 'store' | 'queueOf' | 'settings' | 'logger'
>;

export type SyncSummary = ReturnType<typeof emptySummary> & { reason?: string };

function emptySummary() {
  return {
    outcome: 'synced' as 'synced' | 'skipped',
    listRequests: 0,
    detailRequests: 0,
    /** A shipment listed on two pages counts twice. */
    itemsRead: 0,
    changed: 0,
    adopted: 0,
    foreign: 0,
    shopifyUpdatesQueued: 0,
  };
}

/** What one cycle reads and counts, handed from step to step. */
interface Cycle {
  deps: SyncDeps;
  labels: Record<string, string>;
  summary: SyncSummary;
  keepLock(): Promise<void>;
}

/** Newest first: new shipments push pages back, so an item may be read twice but none skipped. */
export async function runSyncCycle(
  deps: SyncDeps,
  holder: string,
  /** Holders starting with it are earlier executions of this job, taken over at start. */
  sameJob?: string,
  /** A scheduled run's slot: it is dropped if the last cycle ended after it, having waited. */
  dueAtMs?: number,
): Promise<SyncSummary> {
  const lockMs = Math.max(10 * 60_000, 2 * deps.settings.sync.intervalMs);
  const summary: SyncSummary = emptySummary();
  const skipped = (reason: string): SyncSummary => ({ ...summary, outcome: 'skipped', reason });
  if (!(await deps.tracking.holdLock(holder, lockMs, sameJob))) {
    return skipped('another sync run is in progress');
  }
  if (dueAtMs !== undefined && !(await deps.tracking.cursor())) {
    const { finishedAtMs } = await deps.tracking.lastCycle();
    // A finish ahead of this clock is another process's skew: not trusted to drop a run.
    if (finishedAtMs !== undefined && finishedAtMs > dueAtMs && finishedAtMs <= Date.now()) {
      // A cycle that waited for the budget just listed; the next slot lists again.
      await deps.tracking.releaseLock(holder);
      return skipped('the last cycle ended after this run was due');
    }
  }
  const keepLock = async () => {
    if (!(await deps.tracking.holdLock(holder, lockMs))) throw new SyncLockLost();
  };
  try {
    await runCycle(deps, summary, keepLock);
  } catch (error) {
    if (error instanceof SyncLockLost) return skipped('another sync run took over');
    // Whichever run comes next resumes from the cursor.
    await deps.tracking.releaseLock(holder);
    throw error;
  }
  await deps.tracking.releaseLock(holder);
  return summary;
}

class SyncLockLost extends Error {}

async function runCycle(deps: SyncDeps, summary: SyncSummary, keepLock: () => Promise<void>) {
  let cursor = await deps.tracking.cursor();
  if (!cursor) {
    const startedAtMs = Date.now();
    const floorMs = startedAtMs - deps.settings.sync.lookbackDays * 24 * 3600_000;
    // Shipments created before the lookback would hold the window open.
    const dropped = await deps.tracking.dropOpenCreatedBefore(floorMs);
    if (dropped > 0) {
      deps.logger.warn(
        { dropped, lookbackDays: deps.settings.sync.lookbackDays },
        'shipments older than SYNC_LOOKBACK_DAYS that never reached delivered or cancelled are no longer synced',
      );
    }
    const start = windowStartMs({
      nowMs: startedAtMs,
      lookbackDays: deps.settings.sync.lookbackDays,
      oldestOpenCreatedAtMs: await deps.tracking.oldestOpenCreatedAtMs(),
      lastCycle: await deps.tracking.lastCycle(),
    });
    cursor = { windowStart: new Date(start).toISOString(), page: 1, startedAtMs, phase: 'list' };
    await deps.tracking.saveCursor(cursor);
  } else {
    deps.logger.info(
      { page: cursor.page, phase: cursor.phase },
      'resuming the sync cycle where it stopped',
    );
  }

  const cycle: Cycle = { deps, labels: await deps.tracking.labels(), summary, keepLock };
  while (cursor.phase === 'list') {
    const answer = await deps.partner.listShipments(
      { createdAfter: new Date(cursor.windowStart), perPage: SYNC_PAGE_SIZE, page: cursor.page },
      { priority: 'sync' },
    );
    summary.listRequests += 1;
    summary.itemsRead += answer.data.length;
    await applyListPage(cycle, answer.data, Date.parse(cursor.windowStart));
    // Only page 1's items are known to be updated before anything this cycle misses was made:
    // later pages are read later, and an older shipment on them may have changed since.
    const listedUntilMs = Math.max(
      cursor.listedUntilMs ?? Number.NEGATIVE_INFINITY,
      ...(cursor.page === 1 ? answer.data : []).map(
        (item) => parsePartnerTimestamp(item.updated_at)?.getTime() ?? Number.NEGATIVE_INFINITY,
      ),
    );
    if (Number.isFinite(listedUntilMs)) cursor = { ...cursor, listedUntilMs };
    // The latest page's total grows when shipments are created while we page.
    const perPage = answer.meta.per_page > 0 ? answer.meta.per_page : SYNC_PAGE_SIZE;
    const last: boolean = answer.data.length === 0 || cursor.page * perPage >= answer.meta.total;
    cursor = last ? { ...cursor, phase: 'details' } : { ...cursor, page: cursor.page + 1 };
    await deps.tracking.saveCursor(cursor);
    await keepLock();
  }

  await readDetails(cycle);
  await deps.tracking.finishCycle(cursor);
  deps.logger.info({ ...summary, windowStart: cursor.windowStart }, 'sync cycle done');
}

async function applyListPage(cycle: Cycle, items: readonly ListItem[], listedAfterMs: number) {
  const { deps, summary } = cycle;
  const known = await deps.tracking.getMany(items.map((item) => item.reference));
  const unknown: ListItem[] = [];
  for (const [i, item] of items.entries()) {
    const shipment = known[i];
    if (!shipment) {
      unknown.push(item);
      continue;
    }
    const changed = await applyAndQueue(cycle, shipment, toReport(item), shipment.createdAtMs);
    // Unchanged, but a write it needs was never queued (a crash between the two) or failed.
    if (
      !changed &&
      pendingUpdates(shipment, deps.settings.sync).length > 0 &&
      !(await deps.tracking.wantsDetail(shipment.reference))
    ) {
      summary.shopifyUpdatesQueued += await queueShipmentUpdates(deps, shipment);
    }
  }
  if (unknown.length > 0) await adopt(cycle, unknown, listedAfterMs);
}

/** Registered before the connector, or record lost. Other stores' go to the drift report. */
async function adopt(cycle: Cycle, items: readonly ListItem[], listedAfterMs: number) {
  const { deps, summary } = cycle;
  const foreign: string[] = [];
  const toAsk: ListItem[] = [];
  const createdAt = new Map<string, number>();
  for (const item of items) {
    if (!/^\d{1,20}$/.test(item.reference) || (await deps.tracking.isForeign(item.reference))) {
      foreign.push(item.reference);
      continue;
    }
    const record = await deps.records.get(item.reference);
    // The provider's creation time, else when the connector registered it (its own clock).
    const ms = record?.partnerCreatedAt
      ? parsePartnerTimestamp(record.partnerCreatedAt)?.getTime()
      : record?.registeredAt
        ? (parsePartnerTimestamp(record.registeredAt)?.getTime() ?? Number.NaN) - SYNC_OVERLAP_MS
        : undefined;
    if (record?.state === 'registered' && ms !== undefined && Number.isFinite(ms))
      createdAt.set(item.reference, ms);
    else toAsk.push(item);
  }
  if (toAsk.length > 0) {
    const orders = await deps.store.findOrders(toAsk.map((item) => item.reference));
    for (const item of toAsk) {
      const order = orders.get(item.reference);
      // The later of the order's creation (Shopify's clock, hence the overlap) and this cycle's
      // created_after is still no later than the shipment's creation, so the window keeps it.
      const ms = order
        ? Math.max(Date.parse(order.createdAt) - SYNC_OVERLAP_MS, listedAfterMs)
        : Number.NaN;
      if (Number.isFinite(ms)) createdAt.set(item.reference, ms);
      else foreign.push(item.reference);
    }
  }
  for (const item of items) {
    const ms = createdAt.get(item.reference);
    if (ms === undefined) continue;
    const report = { ...toReport(item), adopted: true };
    if (await applyAndQueue(cycle, null, report, ms)) summary.adopted += 1;
  }
  await deps.tracking.noteForeign(foreign);
  summary.foreign += foreign.length;
}

/** Then the shipment waits for its next change at the provider. */
const DETAIL_ATTEMPTS = 5;

/** A shipment the provider keeps failing to answer for is left for the next cycle. */
async function readDetails(cycle: Cycle): Promise<void> {
  const { deps, labels, keepLock } = cycle;
  const tried = new Set<string>();
  for (;;) {
    const references = (await deps.tracking.needingDetail()).filter((r) => !tried.has(r));
    if (references.length === 0) return;
    for (const reference of references) {
      tried.add(reference);
      const known = await deps.tracking.get(reference);
      // Read once per change: wanting it again takes a newer change, seen in a later list.
      let done = true;
      // A label learned from another shipment may have made it needless.
      if (known && wantsDetail(known, labels)) {
        try {
          await readDetail(cycle, known);
        } catch (error) {
          if (!isOneShipmentsFailure(error)) throw error;
          const failures = await deps.tracking.noteDetailFailure(reference);
          done = failures >= DETAIL_ATTEMPTS;
          deps.logger.warn(
            { reference, failures, err: error },
            done
              ? 'the provider kept failing to answer for this shipment: its tracking waits for its next change'
              : 'could not read a shipment in detail; tried again next cycle',
          );
        }
      }
      if (done) await deps.tracking.detailDone(reference);
      await keepLock();
    }
  }
}

/** A wait, a refused token or a wrong URL concern every request; the rest, this shipment only. */
function isOneShipmentsFailure(error: unknown): boolean {
  if (error instanceof PartnerWaitError || error instanceof PartnerAuthError) return false;
  if (error instanceof PartnerUrlMisconfiguredError) return false;
  return error instanceof PartnerError;
}

async function readDetail(cycle: Cycle, known: TrackedShipment): Promise<void> {
  const { deps, labels } = cycle;
  cycle.summary.detailRequests += 1;
  // The next list says what became of it.
  const record = await deps.partner
    .getShipment(known.reference, { priority: 'sync' })
    .catch((error: unknown) => {
      if (error instanceof PartnerNotFoundError) return undefined;
      throw error;
    });
  if (!record) {
    deps.logger.warn({ reference: known.reference }, 'a listed shipment could not be read');
    return;
  }
  if (labels[record.status] !== record.status_label) {
    labels[record.status] = record.status_label;
    await deps.tracking.learnLabel(record.status, record.status_label);
  }
  await applyAndQueue(cycle, known, detailReport(record), known.createdAtMs);
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

/** The save succeeds only if the shipment is still as read; otherwise it reads again. */
async function applyAndQueue(
  { deps, labels, summary }: Cycle,
  known: TrackedShipment | null,
  report: ShipmentReport,
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
      const shipment = needsDetail ? undefined : await deps.tracking.get(report.reference);
      if (shipment) summary.shopifyUpdatesQueued += await queueShipmentUpdates(deps, shipment);
      return true;
    }
    current = await deps.tracking.get(report.reference);
  }
  throw new Error(`Shipment ${report.reference} kept changing while it was synced`);
}
