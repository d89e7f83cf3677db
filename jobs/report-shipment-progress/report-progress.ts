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
  /** Its sentUnits: the fulfillment orders the units were on. */
  records: Pick<OrderRecords, 'get'>;
  settings: Pick<JobSettings, 'shipment' | 'sync'>;
  logger: Logger;
}

export interface ReportProgressOptions {
  /** An earlier attempt may have reported some: read the order and report only OPEN ones. */
  retry?: boolean;
}

/** Only OPEN ones, never a pickup's, another location's or a service's; a retry is harmless. */
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
      // Looked at first unless collected from everywhere: one moved whole elsewhere must not be
      // reported, as Shopify then refuses to move it back. Unlooked, a refusal sends the run to
      // the catch, which reads the order.
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
  // As of the send, under its settings: a later delivery opened early since, or a location
  // collected from only since, holds none of the shipment.
  const record = await deps.records.get(reference);
  const sent = decodeSentUnits(record?.sentUnits);
  const sentLines = decodeSentLines(record?.sentUnits);
  const settings = decodeSettings(record?.sentSettings) ?? deps.settings.shipment;
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

/** Status (if due) with the first; a refusal of the status alone is returned, to throw after. */
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

/** `shown: false`: nothing was reported. */
async function writeStatusIfDue(
  shipment: TrackedShipment,
  deps: ReportProgressDeps,
  options: { shown?: boolean } = {},
) {
  if (!statusMetafieldsDue(shipment, deps.settings.sync, options)) return;
  await writeShipmentStatus(shipment.reference, deps, { shipment });
}
