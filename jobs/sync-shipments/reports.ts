import {
  furthestStage,
  isHandedToCarrier,
  stageOf,
  supersedes,
} from '../../src/domain/shipment-progress.js';
import { parsePartnerTimestamp } from '../../src/partner/time.js';
import type { ProviderSide, TrackedShipment } from '../../src/records/shipment-tracking.js';

/** A list item, or a detail read. */
export interface ShipmentReport {
  reference: string;
  orderNumber: string;
  status: string;
  updatedAt: string;
  /** Not registered by this connector. */
  adopted?: boolean;
  detail?: {
    carrier: string | null;
    trackingNumber: string | null;
    deliveredAt?: string;
  };
}

/** Null when the report changes nothing (older or repeated). */
export function applyReport(
  known: TrackedShipment | null,
  report: ShipmentReport,
  labels: Readonly<Record<string, string>>,
  createdAtMs: number,
): { side: ProviderSide; needsDetail: boolean } | null {
  const updatedAtMs = parsePartnerTimestamp(report.updatedAt)?.getTime();
  if (updatedAtMs === undefined) return null;
  const newStatus = supersedes({ status: report.status, updatedAtMs }, known ?? undefined);
  const newTracking =
    report.detail !== undefined &&
    (report.detail.trackingNumber !== (known?.trackingNumber ?? null) ||
      report.detail.carrier !== (known?.carrier ?? null) ||
      report.updatedAt !== known?.trackingReadAt);
  if (!newStatus && !newTracking) return null;

  const current = newStatus
    ? { status: report.status, updatedAt: report.updatedAt, updatedAtMs }
    : { status: known!.status, updatedAt: known!.updatedAt, updatedAtMs: known!.updatedAtMs };
  const stage = newStatus ? furthestStage(known?.stage, report.status) : known!.stage;
  const tracking = report.detail
    ? {
        ...(report.detail.carrier ? { carrier: report.detail.carrier } : {}),
        ...(report.detail.trackingNumber ? { trackingNumber: report.detail.trackingNumber } : {}),
        trackingReadAt: report.updatedAt,
      }
    : {};
  const side: ProviderSide = {
    orderNumber: report.orderNumber,
    ...current,
    stage,
    createdAtMs: known?.createdAtMs ?? createdAtMs,
    ...tracking,
    ...(!known && report.adopted ? { adoptedAtStage: stage } : {}),
    ...(stage === 'delivered' && !known?.deliveredAt
      ? { deliveredAt: report.detail?.deliveredAt ?? current.updatedAt }
      : {}),
  };
  return { side, needsDetail: wantsDetail(side, labels, known) };
}

/** A detail read costs one request, so it is made only when it tells something the list cannot. */
export function wantsDetail(
  side: ProviderSide | TrackedShipment,
  labels: Readonly<Record<string, string>>,
  known: TrackedShipment | null = null,
): boolean {
  const trackingNumber = side.trackingNumber ?? known?.trackingNumber;
  const trackingReadAt = side.trackingReadAt ?? known?.trackingReadAt;
  if (isHandedToCarrier(side.stage)) {
    if (!trackingNumber) return true;
    if (side.stage === 'shipped' && trackingReadAt !== side.updatedAt) return true;
  }
  return stageOf(side.status) === undefined && labels[side.status] === undefined;
}
