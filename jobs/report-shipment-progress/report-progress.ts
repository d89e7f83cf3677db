import {
  collects,
  decodeSentLines,
  decodeSentUnits,
  keepingSentFrom,
  shipmentContents,
  shipmentSentSinceMs,
} from '../../src/domain/shipment-contents.js';
import { decodeSettings } from '../../src/domain/shipment-fingerprint.js';
import type { Logger } from '../../src/log.js';
import type { OrderRecords } from '../../src/records/order-records.js';
import type { ShipmentTracking, TrackedShipment } from '../../src/records/shipment-tracking.js';
import { StoreAuthError, StoreNotFoundError, StoreUserError } from '../../src/store/errors.js';
import type { Fulfillments, OrderMarks, OrderReader } from '../../src/store/types.js';
import type { JobSettings } from '../context.js';
import { statusMetafieldsDue } from '../shipment-updates/follow-ups.js';
import { onlyStatusRefused, writeShipmentStatus } from '../write-shipment-status/write-status.js';

export interface ReportProgressDeps {
  store: Pick<
    Fulfillments,
    'readFulfillmentState' | 'readFulfillmentOrders' | 'reportFulfillmentOrderProgress'
  > &
    Pick<OrderMarks, 'setOrderMetafields'> &
    Pick<OrderReader, 'getOrder'>;
  tracking: Pick<ShipmentTracking, 'get' | 'labels' | 'saveShopifySide'>;
  /** The fulfillment orders the units sent were on (sentUnits). */
  records: Pick<OrderRecords, 'get'>;
  settings: Pick<JobSettings, 'shipment' | 'sync'>;
  logger: Logger;
}

export interface ReportProgressOptions {
  /**
   * A later attempt: an earlier one may have reported some fulfillment orders already, so the
   * order is read and only OPEN ones are reported. A first attempt reports on the fulfillment
   * orders the units were sent from, looked at alone.
   */
  retry?: boolean;
}

/**
 * The provider started on the shipment: the fulfillment orders that hold the shipment's
 * contents (never a pickup's, another location's or a service's) are reported in progress, so
 * staff see it in Shopify; the order's status metafields, when due (the sync leaves them to this
 * job), go in the same request as the first report, or on their own when nothing is reported. A first attempt reports on the fulfillment orders
 * the units were sent from, as kept with the record, without reading the order: when the send's
 * settings leave some location out, it looks at them alone first (one small request) and reports
 * those still OPEN, at a location collected from, and reportable; otherwise it reports them
 * unlooked. If Shopify refuses one all the same, the order
 * is read. Read, only OPEN ones holding the shipment as of the send, under its settings, are
 * reported: one already in progress needs nothing, which also makes a retry harmless.
 */
export async function reportShipmentProgress(
  reference: string,
  deps: ReportProgressDeps,
  options: ReportProgressOptions = {},
): Promise<'reported' | 'nothing-to-report' | 'stale'> {
  const shipment = await deps.tracking.get(reference);
  if (!shipment) return 'stale';
  if (shipment.stage !== 'processing') {
    await writeStatusIfDue(shipment, deps);
    return 'stale';
  }
  if (shipment.progressReportedAt) {
    await writeStatusIfDue(shipment, deps);
    return 'nothing-to-report';
  }
  const notes = `Being prepared by the provider (shipment ${shipment.orderNumber}).`;
  if (!options.retry) {
    const record = await deps.records.get(reference);
    const sent = decodeSentLines(record?.sentUnits);
    const kept = [...new Set((sent ?? []).map((line) => line.fulfillmentOrderId))];
    if (kept.length > 0) {
      // Looked at first when some location is not collected from: one staff moved whole (same
      // id) to such a location must not be reported, since Shopify refuses to move one back once
      // progress was reported. Collected from everywhere, there is no such location: Shopify
      // refuses one no longer reportable (closed, held, a service's), and the order is read.
      const collectFrom = (decodeSettings(record?.sentSettings) ?? deps.settings.shipment)
        .collectFromLocations;
      const ids =
        collectFrom.length === 0
          ? kept
          : (await deps.store.readFulfillmentOrders(kept))
              .filter(
                (fo) =>
                  fo?.status === 'OPEN' &&
                  !fo.location.isFulfillmentService &&
                  collects(collectFrom, fo.location) &&
                  fo.supportedActions.includes('REPORT_PROGRESS'),
              )
              .map((fo) => fo!.id);
      let statusRefused: StoreUserError | undefined;
      try {
        statusRefused = await report(reference, shipment, ids, notes, deps);
        if (ids.length === 0) await writeStatusIfDue(shipment, deps, { shown: false });
      } catch (error) {
        // Access denied counts too: Shopify may answer so for a fulfillment service's one.
        const refused =
          error instanceof StoreUserError ||
          error instanceof StoreNotFoundError ||
          error instanceof StoreAuthError;
        if (!refused) throw error;
        deps.logger.info(
          { reference, err: error.message },
          'a fulfillment order the units were sent from cannot take a report now; reading the order',
        );
        // As a later attempt would: what was reported (and the status, if written) is kept.
        return reportShipmentProgress(reference, deps, { retry: true });
      }
      await deps.tracking.saveShopifySide(reference, {
        progressReportedAt: new Date().toISOString(),
      });
      if (statusRefused) throw statusRefused;
      return ids.length > 0 ? 'reported' : 'nothing-to-report';
    }
  }
  // Read, the order is taken as of the send and under its settings: a later delivery opened
  // early since, or a location collected from only since, holds none of the shipment.
  const record = await deps.records.get(reference);
  const sent = decodeSentUnits(record?.sentUnits);
  const sentLines = decodeSentLines(record?.sentUnits);
  const settings = decodeSettings(record?.sentSettings) ?? deps.settings.shipment;
  // Without the lines sent from (a record kept before they were), a box opened early before the
  // send cannot be told from a later one: only what is still scheduled is a later delivery.
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
  const open = (order?.fulfillmentOrders ?? []).filter(
    (fo) =>
      fo.status === 'OPEN' &&
      shipping.has(fo.id) &&
      !fo.location.isFulfillmentService &&
      fo.supportedActions.includes('REPORT_PROGRESS'),
  );
  const statusRefused = await report(
    reference,
    shipment,
    open.map((fo) => fo.id),
    notes,
    deps,
  );
  if (open.length === 0) await writeStatusIfDue(shipment, deps, { shown: false });
  await deps.tracking.saveShopifySide(reference, { progressReportedAt: new Date().toISOString() });
  if (statusRefused) throw statusRefused;
  return open.length > 0 ? 'reported' : 'nothing-to-report';
}

/**
 * Reports on these fulfillment orders, the status metafields (if due) with the first. Returns
 * Shopify's refusal of the metafields alone, once every report is made: the caller records the
 * reports before failing with it.
 */
async function report(
  reference: string,
  shipment: TrackedShipment,
  ids: string[],
  notes: string,
  deps: ReportProgressDeps,
): Promise<StoreUserError | undefined> {
  let [first, ...rest] = ids;
  let statusRefused: StoreUserError | undefined;
  if (first && statusMetafieldsDue(shipment, deps.settings.sync)) {
    const id = first;
    try {
      await writeShipmentStatus(reference, deps, {
        shipment,
        firstWrite: (metafields) =>
          deps.store.reportFulfillmentOrderProgress(id, notes, {
            orderStatus: { orderId: reference, metafields },
          }),
      });
    } catch (error) {
      if (!onlyStatusRefused(error)) throw error;
      statusRefused = error;
    }
    first = undefined;
  }
  for (const id of first ? [first, ...rest] : rest) {
    await deps.store.reportFulfillmentOrderProgress(id, notes);
  }
  return statusRefused;
}

/** The status metafields, when due; `shown: false` once nothing was reported. */
async function writeStatusIfDue(
  shipment: TrackedShipment,
  deps: ReportProgressDeps,
  options: { shown?: boolean } = {},
) {
  if (!statusMetafieldsDue(shipment, deps.settings.sync, options)) return;
  await writeShipmentStatus(shipment.reference, deps, { shipment });
}
