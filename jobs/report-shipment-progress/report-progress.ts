import { shipmentContents } from '../../src/domain/shipment-contents.js';
import type { Logger } from '../../src/log.js';
import type { ShipmentTracking, TrackedShipment } from '../../src/records/shipment-tracking.js';
import type { Fulfillments, OrderMarks, OrderReader } from '../../src/store/types.js';
import type { JobSettings } from '../context.js';
import { statusVersion } from '../shipment-updates/follow-ups.js';
import { writeShipmentStatus } from '../write-shipment-status/write-status.js';

export interface ReportProgressDeps {
  store: Pick<Fulfillments, 'readFulfillmentState' | 'reportFulfillmentOrderProgress'> &
    Pick<OrderMarks, 'setOrderMetafields'> &
    Pick<OrderReader, 'getOrder'>;
  tracking: Pick<ShipmentTracking, 'get' | 'labels' | 'saveShopifySide'>;
  settings: Pick<JobSettings, 'shipment'>;
  logger: Logger;
}

/**
 * The provider started on the shipment: the fulfillment orders that hold the shipment's
 * contents (never a pickup's, another location's or a service's) are reported in progress, so
 * staff see it in Shopify, and the order's status metafields (the sync leaves them to this job)
 * go in the same request as the first report. Only OPEN ones are
 * reported: one already in progress needs nothing, which also makes a retry harmless.
 */
export async function reportShipmentProgress(
  reference: string,
  deps: ReportProgressDeps,
): Promise<'reported' | 'nothing-to-report' | 'stale'> {
  const shipment = await deps.tracking.get(reference);
  if (!shipment) return 'stale';
  if (shipment.stage !== 'processing') {
    await writeStatusIfBehind(shipment, deps);
    return 'stale';
  }
  if (shipment.progressReportedAt) {
    await writeStatusIfBehind(shipment, deps);
    return 'nothing-to-report';
  }
  const storeOrder = await deps.store.getOrder(reference);
  const contents = storeOrder
    ? shipmentContents(storeOrder, deps.settings.shipment)
    : { lines: [] };
  const shipping = new Set(contents.lines.map((line) => line.fulfillmentOrderId));
  const order = await deps.store.readFulfillmentState(reference);
  const open = (order?.fulfillmentOrders ?? []).filter(
    (fo) =>
      fo.status === 'OPEN' &&
      shipping.has(fo.id) &&
      !fo.location.isFulfillmentService &&
      fo.supportedActions.includes('REPORT_PROGRESS'),
  );
  const notes = `Being prepared by the provider (shipment ${shipment.orderNumber}).`;
  let [first, ...rest] = open;
  if (first && shipment.writtenStatus !== statusVersion(shipment)) {
    const id = first.id;
    await writeShipmentStatus(reference, deps, {
      shipment,
      firstWrite: (metafields) =>
        deps.store.reportFulfillmentOrderProgress(id, notes, {
          orderStatus: { orderId: reference, metafields },
        }),
    });
    first = undefined;
  }
  for (const fo of first ? [first, ...rest] : rest) {
    await deps.store.reportFulfillmentOrderProgress(fo.id, notes);
  }
  if (open.length === 0) await writeStatusIfBehind(shipment, deps);
  await deps.tracking.saveShopifySide(reference, { progressReportedAt: new Date().toISOString() });
  return open.length > 0 ? 'reported' : 'nothing-to-report';
}

/** The status metafields, when the order does not show the newest yet. */
async function writeStatusIfBehind(shipment: TrackedShipment, deps: ReportProgressDeps) {
  if (shipment.writtenStatus === statusVersion(shipment)) return;
  await writeShipmentStatus(shipment.reference, deps, { shipment });
}
