import { shipmentContents } from '../../src/domain/shipment-contents.js';
import type { Logger } from '../../src/log.js';
import type { ShipmentTracking } from '../../src/records/shipment-tracking.js';
import type { Fulfillments, OrderReader } from '../../src/store/types.js';
import type { JobSettings } from '../context.js';

export interface ReportProgressDeps {
  store: Pick<Fulfillments, 'readFulfillmentState' | 'reportFulfillmentOrderProgress'> &
    Pick<OrderReader, 'getOrder'>;
  tracking: Pick<ShipmentTracking, 'get' | 'saveShopifySide'>;
  settings: Pick<JobSettings, 'shipment'>;
  logger: Logger;
}

/**
 * The provider started on the shipment: the fulfillment orders that hold the shipment's
 * contents (never a pickup's, another location's or a service's) are reported in progress, so
 * staff see it in Shopify. Only OPEN ones are reported: one already in progress needs nothing,
 * which also makes a retry harmless.
 */
export async function reportShipmentProgress(
  reference: string,
  deps: ReportProgressDeps,
): Promise<'reported' | 'nothing-to-report' | 'stale'> {
  const shipment = await deps.tracking.get(reference);
  if (shipment?.stage !== 'processing') return 'stale';
  if (shipment.progressReportedAt) return 'nothing-to-report';
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
  for (const fo of open) {
    await deps.store.reportFulfillmentOrderProgress(
      fo.id,
      `Being prepared by the provider (shipment ${shipment.orderNumber}).`,
    );
  }
  await deps.tracking.saveShopifySide(reference, { progressReportedAt: new Date().toISOString() });
  return open.length > 0 ? 'reported' : 'nothing-to-report';
}
