import { setTimeout as sleep } from 'node:timers/promises';
import { JOB_CATALOG } from '../../jobs/catalog.js';
import { orderJobId } from '../../jobs/create-shipment/payload.js';
import { numberKey, updateJobId } from '../../jobs/shipment-updates/updates.js';
import { SYNC_PAGE_SIZE } from '../../jobs/sync-shipments/cycle.js';
import { checkEligibility, precheckEligibility } from '../domain/eligibility.js';
import type { StoreOrderSummary } from '../domain/order.js';
import { carriesRegistrationMarks } from '../domain/order-marks.js';
import {
  decodeSentUnits,
  holdsSentUnits,
  shipmentContents,
  shipmentSentSinceMs,
  WAITING_TOO_LONG_MS,
} from '../domain/shipment-contents.js';
import { isHandedToCarrier } from '../domain/shipment-progress.js';
import type { PartnerApi } from '../partner/client.js';
import { PartnerWaitError } from '../partner/errors.js';
import type { ListItem } from '../partner/schemas.js';
import type { OrderRecord } from '../records/order-records.js';
import type { TrackedShipment } from '../records/shipment-tracking.js';
import type { FulfillmentState, Fulfillments, OrderReader } from '../store/types.js';
import type { SharedParts } from './parts.js';

/** `connector drift`: counts and ids only (no personal data); provider reads at sync priority. */
export interface DriftOptions {
  /** Drift younger than this is the normal lag of webhooks, jobs and the sync. */
  olderThanMinutes: number;
  lookbackDays: number;
  maxFulfillmentReads: number;
  now?: () => number;
}

/** Provider: list pages. Shopify: order pages, a look-up of unknown references, fulfillments. */
type Requests = Record<'provider' | 'shipmentsListed' | 'shopify', number>;
type FulfilJob = { id: string; state: string; failedReason?: string };

export type DriftReport = Awaited<ReturnType<typeof driftReport>>;

export interface DriftDeps {
  parts: Pick<SharedParts, 'records' | 'tracking' | 'queueOf' | 'settings'>;
  partner: Pick<PartnerApi, 'listShipments'>;
  store: Pick<OrderReader, 'listOrdersUpdatedSince' | 'findOrders' | 'getOrder'> &
    Pick<Fulfillments, 'readFulfillmentState'>;
}

/** What every check reads from, and the requests made so far. */
type Scan = DriftDeps & {
  options: DriftOptions;
  cutoffMs: number;
  listed: Map<string, ListItem>;
  orders: Map<string, StoreOrderSummary>;
  requests: Requests;
  /** Whole orders `paidWithoutShipment` may still read. */
  orderReadsLeft: number;
};

const MINUTE_MS = 60_000;
/** Total wait for the request budget. */
const MAX_BUDGET_WAIT_MS = 5 * MINUTE_MS;
const DAY_MS = 24 * 3600_000;
/** Pages of 100. */
const MAX_ORDER_PAGES = 100;

export async function driftReport(deps: DriftDeps, options: DriftOptions) {
  const startedAt = (options.now ?? Date.now)();
  const lookbackFrom = new Date(startedAt - options.lookbackDays * DAY_MS);
  const requests: Requests = { provider: 0, shipmentsListed: 0, shopify: 0 };
  const scan: Scan = {
    ...deps,
    options,
    cutoffMs: startedAt - options.olderThanMinutes * MINUTE_MS,
    listed: await listShipments(deps.partner, lookbackFrom, requests),
    orders: await listOrders(deps.store, lookbackFrom, requests),
    requests,
    orderReadsLeft: options.maxFulfillmentReads,
  };

  return {
    generatedAt: new Date(startedAt).toISOString(),
    olderThanMinutes: options.olderThanMinutes,
    lookbackFrom: lookbackFrom.toISOString(),
    paidWithoutShipment: await paidWithoutShipment(scan),
    shipmentsWithoutOrder: await shipmentsWithoutOrder(scan),
    shippedNotFulfilled: await shippedNotFulfilled(scan),
    fulfilledNotShipped: await fulfilledNotShipped(scan),
    waitingTooLong: await waitingTooLong(deps, startedAt),
    requests,
  };
}

/** Listed at most, longest wait first; the count says how many there are. */
const WAITING_TOO_LONG_LISTED = 200;

/** Still looked at, but maybe forgotten. A wait on schedules alone counts from the first date. */
async function waitingTooLong(deps: DriftDeps, nowMs: number) {
  const { count, waits } = await deps.parts.records.waitingSince(
    new Date(nowMs - WAITING_TOO_LONG_MS),
    WAITING_TOO_LONG_LISTED,
  );
  const orders = [];
  for (const { orderId, since } of waits) {
    const record = await deps.parts.records.get(orderId);
    orders.push({ orderId, waitingSince: since.toISOString(), reason: record?.reason ?? null });
  }
  return { count, days: WAITING_TOO_LONG_MS / DAY_MS, orders };
}

async function listShipments(partner: DriftDeps['partner'], from: Date, requests: Requests) {
  const items = new Map<string, ListItem>();
  let waitedMs = 0;
  for (let page = 1; ; ) {
    const answer = await partner
      .listShipments({ createdAfter: from, perPage: SYNC_PAGE_SIZE, page }, { priority: 'sync' })
      .catch(async (error: unknown) => {
        // Budget spent (maybe by the service) or a 429: wait our turn.
        if (!(error instanceof PartnerWaitError)) throw error;
        if (waitedMs + error.waitMs > MAX_BUDGET_WAIT_MS) throw error;
        waitedMs += error.waitMs;
        await sleep(error.waitMs);
      });
    if (!answer) continue;
    requests.provider += 1;
    requests.shipmentsListed += answer.data.length;
    for (const item of answer.data) items.set(item.reference, item);
    const perPage = answer.meta.per_page > 0 ? answer.meta.per_page : SYNC_PAGE_SIZE;
    if (answer.data.length === 0 || page * perPage >= answer.meta.total) break;
    page += 1;
  }
  return items;
}

async function listOrders(store: DriftDeps['store'], since: Date, requests: Requests) {
  const orders = new Map<string, StoreOrderSummary>();
  let after: string | undefined;
  for (let page = 0; page < MAX_ORDER_PAGES; page += 1) {
    const answer = await store.listOrdersUpdatedSince(since, after);
    requests.shopify += 1;
    for (const order of answer.orders) orders.set(order.id, order);
    if (!answer.nextCursor) break;
    after = answer.nextCursor;
  }
  return orders;
}

const CONTENTS_SKIPS = new Set(['no_shipping', 'held']);

/**
 * The worker's answer from the same contents; its skip stands while the order is unchanged.
 * A held order counts only while still in the waiting index: a release need not change the order.
 */
async function shipsNothing(scan: Scan, order: StoreOrderSummary, record: OrderRecord | null) {
  const waitsAndIsWatched = () => scan.parts.records.isWaiting(order.id);
  if (
    record?.state === 'skipped' &&
    CONTENTS_SKIPS.has(record.skipCode ?? '') &&
    Date.parse(order.updatedAt) <= Date.parse(record.updatedAt)
  ) {
    return record.skipCode === 'held' ? waitsAndIsWatched() : true;
  }
  if (scan.orderReadsLeft <= 0) return false;
  scan.orderReadsLeft -= 1;
  const whole = await scan.store.getOrder(order.id);
  scan.requests.shopify += 1;
  if (!whole) return false;
  const { shipment, eligibility } = scan.parts.settings;
  const answer = checkEligibility(whole, eligibility, shipmentContents(whole, shipment));
  if (answer.eligible) return false;
  return answer.code === 'held' ? waitsAndIsWatched() : true;
}

/**
 * Refused ones at any age, others once unchanged for the threshold. `state`: the record's or
 * `not seen`. `youngerLeftOut`: younger ones not refused, the normal lag.
 */
async function paidWithoutShipment(scan: Scan) {
  const { parts, orders, listed, cutoffMs } = scan;
  const found = [];
  let youngerLeftOut = 0;
  const createQueue = parts.queueOf(JOB_CATALOG.createShipment);
  for (const order of orders.values()) {
    if (!precheckEligibility(order, parts.settings.eligibility).eligible) continue;
    if (listed.has(order.id) || carriesRegistrationMarks(order)) continue;
    const record = await parts.records.get(order.id);
    if (record?.state === 'registered') continue;
    // A refused order waits for staff whatever its age; any other young one may be on its way.
    const young = Date.parse(order.createdAt) > cutoffMs || Date.parse(order.updatedAt) > cutoffMs;
    if (young && record?.state !== 'failed') {
      youngerLeftOut += 1;
      continue;
    }
    if (await shipsNothing(scan, order, record)) continue;
    const jobState = await createQueue.getJobState(orderJobId(order.id));
    found.push({
      orderId: order.id,
      name: order.name,
      state: record?.state ?? 'not seen',
      job:
        jobState === 'unknown' ? null : `${createQueue.name}/${orderJobId(order.id)}: ${jobState}`,
    });
  }
  return { count: found.length, orders: found, ordersRead: orders.size, youngerLeftOut };
}

async function shipmentsWithoutOrder({ parts, store, orders, listed, requests }: Scan) {
  const foreign = new Set(await parts.tracking.foreignReferences());
  const unknown: string[] = [];
  const known = await parts.tracking.getMany([...listed.keys()]);
  for (const [i, reference] of [...listed.keys()].entries()) {
    if (foreign.has(reference) || known[i] || orders.has(reference)) continue;
    if (!/^\d{1,20}$/.test(reference)) foreign.add(reference);
    else if ((await parts.records.get(reference))?.state !== 'registered') unknown.push(reference);
  }
  if (unknown.length > 0) {
    const found = await store.findOrders(unknown);
    requests.shopify += 1;
    for (const reference of unknown) if (!found.has(reference)) foreign.add(reference);
  }
  const references = [...foreign].sort();
  return { count: references.length, references };
}

async function shippedNotFulfilled(scan: Scan) {
  const failedJobs = new Map<string, FulfilJob>();
  for (const job of await scan.parts.queueOf(JOB_CATALOG.fulfilShipment).getFailed(0, -1)) {
    const reference = job?.data?.reference;
    if (typeof reference !== 'string' || !job.id) continue;
    failedJobs.set(reference, {
      id: job.id,
      state: 'failed',
      ...(job.failedReason ? { failedReason: job.failedReason } : {}),
    });
  }
  const found = [];
  for await (const s of allShipments(scan)) {
    if (!isHandedToCarrier(s.stage)) continue;
    const failed = failedJobs.get(s.reference);
    const behind =
      (!s.trackingNumber ||
        (s.fulfilledNumber !== s.trackingNumber && s.unfulfillableNumber !== s.trackingNumber)) &&
      s.updatedAtMs <= scan.cutoffMs;
    if (!failed && !behind) continue;
    found.push({
      orderId: s.reference,
      stage: s.stage,
      trackingNumber: s.trackingNumber ?? null,
      fulfilJob: failed ?? (await fulfilJobOf(scan, s)),
      ...(s.fulfilBlockedReason ? { blockedReason: s.fulfilBlockedReason } : {}),
    });
  }
  found.sort((a, b) => a.orderId.localeCompare(b.orderId));
  return { count: found.length, orders: found };
}

async function fulfilJobOf(deps: DriftDeps, shipment: TrackedShipment): Promise<FulfilJob | null> {
  if (!shipment.trackingNumber) return null;
  const id = updateJobId('fulfil', {
    reference: shipment.reference,
    version: numberKey(shipment.trackingNumber),
  });
  const state = await deps.parts.queueOf(JOB_CATALOG.fulfilShipment).getJobState(id);
  return state === 'unknown' ? null : { id, state };
}

async function* allShipments(deps: DriftDeps): AsyncGenerator<TrackedShipment> {
  for await (const references of deps.parts.tracking.references()) {
    for (const s of await deps.parts.tracking.getMany(references)) if (s) yield s;
  }
}

async function fulfilledNotShipped(scan: Scan) {
  const { parts, options } = scan;
  const candidates: TrackedShipment[] = [];
  for await (const s of allShipments(scan)) {
    if (isHandedToCarrier(s.stage) || s.stage === 'cancelled') continue;
    if (s.createdAtMs <= scan.cutoffMs) candidates.push(s);
  }
  // Oldest first: likeliest fulfilled some other way.
  candidates.sort((a, b) => a.createdAtMs - b.createdAtMs);
  const toCheck = candidates.slice(0, options.maxFulfillmentReads);
  const found = [];
  const collectFrom = parts.settings.shipment.collectFromLocations;
  for (const s of toCheck) {
    const order = await scan.store.readFulfillmentState(s.reference);
    scan.requests.shopify += 1;
    // Only a fulfillment of the units the provider holds counts as this shipment's.
    const record = await parts.records.get(s.reference);
    const asked = decodeSentUnits(record?.sentUnits);
    const since = shipmentSentSinceMs(record, s.createdAtMs);
    const fulfilsShipment = (f: FulfillmentState) =>
      f.status === 'SUCCESS' && (!asked || holdsSentUnits(f, asked, collectFrom, since));
    if (order?.fulfillments.some(fulfilsShipment)) {
      found.push({ orderId: s.reference, stage: s.stage, providerStatus: s.status });
    }
  }
  return {
    count: found.length,
    orders: found,
    candidates: candidates.length,
    checked: toCheck.length,
    limit: options.maxFulfillmentReads,
  };
}
