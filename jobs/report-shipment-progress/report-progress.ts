import {
  collects,
  decodeSentLines,
  decodeSentUnits,
  keepingSentFrom,
  shipmentContents,
  shipmentSentSinceMs,
} from '../../src/domain/shipment-contents.js';
import { decodeSettings, type FingerprintSettings } from '../../src/domain/shipment-fingerprint.js';
import type { OrderRecord } from '../../src/records/order-records.js';
import type { TrackedShipment } from '../../src/records/shipment-tracking.js';
import { StoreAuthError, StoreNotFoundError, StoreUserError } from '../../src/store/errors.js';
import type { FulfillmentOrderState } from '../../src/store/types.js';
import type { JobContext, JobSettings } from '../context.js';
import {
  type WriteStatusDeps,
  writeEachWithStatus,
  writeStatusIfDue,
} from '../write-shipment-status/write-status.js';

export interface ReportProgressDeps extends WriteStatusDeps {
  store: Pick<
    JobContext['store'],
    'readFulfillmentState' | 'readFulfillmentOrders' | 'reportFulfillmentOrderProgress' | 'getOrder'
  > &
    WriteStatusDeps['store'];
  /** Its sentUnits: the fulfillment orders the units were on. */
  records: Pick<JobContext['records'], 'get'>;
  settings: Pick<JobSettings, 'shipment' | 'sync'>;
}

/**
 * Only OPEN ones, never a pickup's, another location's or a service's; a retry is harmless.
 * `retry`: an earlier attempt may have reported some, so the order is read and only OPEN ones go.
 */
export async function reportShipmentProgress(
  reference: string,
  deps: ReportProgressDeps,
  options: { retry?: boolean } = {},
): Promise<'reported' | 'nothing-to-report' | 'stale'> {
  const shipment = await deps.tracking.get(reference);
  if (!shipment) return 'stale';
  const stale = shipment.stage !== 'processing';
  if (stale || shipment.progressReportedAt) {
    await writeStatusIfDue(shipment, deps);
    return stale ? 'stale' : 'nothing-to-report';
  }
  const notes = `Being prepared by the provider (shipment ${shipment.orderNumber}).`;
  const record = await deps.records.get(reference);
  const settings = decodeSettings(record?.sentSettings) ?? deps.settings.shipment;
  const sentLines = decodeSentLines(record?.sentUnits);
  const kept = options.retry
    ? []
    : [...new Set((sentLines ?? []).map((l) => l.fulfillmentOrderId))];
  const ids =
    kept.length > 0
      ? await keptToReport(kept, settings, deps)
      : await openToReport(reference, shipment, record, settings, deps);
  let statusRefused: StoreUserError | undefined;
  try {
    statusRefused = await writeEachWithStatus(shipment, ids, deps, (id, orderStatus) =>
      deps.store.reportFulfillmentOrderProgress(id, notes, { orderStatus }),
    );
    if (ids.length === 0) await writeStatusIfDue(shipment, deps, { shown: false });
  } catch (error) {
    // Access denied counts too: Shopify may answer so for a fulfillment service's one.
    const refused =
      error instanceof StoreUserError ||
      error instanceof StoreNotFoundError ||
      error instanceof StoreAuthError;
    if (kept.length === 0 || !refused) throw error;
    deps.logger.info(
      { reference, err: error.message },
      'a fulfillment order the units were sent from cannot take a report now; reading the order',
    );
    // As a later attempt would: what was reported (and the status, if written) is kept.
    return reportShipmentProgress(reference, deps, { retry: true });
  }
  await deps.tracking.saveShopifySide(reference, { progressReportedAt: new Date().toISOString() });
  if (statusRefused) throw statusRefused;
  return ids.length > 0 ? 'reported' : 'nothing-to-report';
}

/**
 * Looked at first unless collected from everywhere: one moved whole elsewhere must not be reported,
 * as Shopify then refuses to move it back. Unlooked, a refusal reads the order.
 */
async function keptToReport(
  kept: string[],
  settings: FingerprintSettings,
  deps: ReportProgressDeps,
): Promise<string[]> {
  const collectFrom = settings.collectFromLocations;
  if (collectFrom.length === 0) return kept;
  return (await deps.store.readFulfillmentOrders(kept))
    .filter((fo) => fo && reportable(fo) && collects(collectFrom, fo.location))
    .map((fo) => fo!.id);
}

/**
 * As of the send, under its settings: a later delivery opened early since, or a location collected
 * from only since, holds none of the shipment.
 */
async function openToReport(
  reference: string,
  shipment: TrackedShipment,
  record: OrderRecord | null,
  settings: FingerprintSettings,
  deps: ReportProgressDeps,
): Promise<string[]> {
  const sent = decodeSentUnits(record?.sentUnits);
  const sentLines = decodeSentLines(record?.sentUnits);
  // Without the lines sent from, only what is still scheduled is a later delivery.
  const when = sentLines
    ? { sentAt: new Date(shipmentSentSinceMs(record, shipment.createdAtMs)) }
    : { now: new Date() };
  const storeOrder = await deps.store.getOrder(reference);
  const contents = storeOrder
    ? shipmentContents(
        sentLines ? keepingSentFrom(storeOrder, sentLines) : storeOrder,
        settings,
        when,
      )
    : { lines: [] };
  const shipping = new Set(
    contents.lines
      .filter((line) => !sent || sent.has(line.item.id))
      .map((line) => line.fulfillmentOrderId),
  );
  const order = await deps.store.readFulfillmentState(reference);
  return (order?.fulfillmentOrders ?? [])
    .filter((fo) => shipping.has(fo.id) && reportable(fo))
    .map((fo) => fo.id);
}

/** Never a fulfillment service's: only a merchant-managed one takes a report. */
const reportable = (fo: Pick<FulfillmentOrderState, 'status' | 'location' | 'supportedActions'>) =>
  fo.status === 'OPEN' &&
  !fo.location.isFulfillmentService &&
  fo.supportedActions.includes('REPORT_PROGRESS');
