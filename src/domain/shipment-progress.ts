/** No provider events; reports may come late or twice, so a status only ever moves forward. */

/** The provider's documented statuses, in the order a shipment passes them. */
export const SHIPMENT_STAGES = ['pending', 'processing', 'shipped', 'delivered'] as const;

export function isFinalStatus(status: string): boolean {
  return status === 'delivered' || status === 'cancelled';
}

/** Undefined for an undocumented status: new ones may appear, and neither advance nor go back. */
export function stageOf(status: string): number | undefined {
  if (status === 'cancelled') return SHIPMENT_STAGES.length - 1;
  const index = (SHIPMENT_STAGES as readonly string[]).indexOf(status);
  return index < 0 ? undefined : index;
}

/** Handed to a carrier, so has a tracking number. */
export function isHandedToCarrier(status: string): boolean {
  return status === 'shipped' || status === 'delivered';
}

export interface StatusReport {
  status: string;
  /** The provider's updated_at (epoch ms). */
  updatedAtMs: number;
}

/** `stage`: the furthest documented stage reached. */
export interface KnownStatus extends StatusReport {
  stage: string;
}

/**
 * Never an older report, a documented status behind the furthest stage (a late "shipped" after
 * "delivered", even past an undocumented one), or a move off a final status. A newer undocumented
 * status is taken (staff see it); the stage stays.
 */
export function supersedes(report: StatusReport, known: KnownStatus | undefined): boolean {
  if (!known) return true;
  if (report.status === known.status) return report.updatedAtMs > known.updatedAtMs;
  if (isFinalStatus(known.status)) return false;
  if (report.updatedAtMs < known.updatedAtMs) return false;
  const reportStage = stageOf(report.status);
  const knownStage = stageOf(known.status) ?? stageOf(known.stage);
  if (reportStage !== undefined && knownStage !== undefined && reportStage < knownStage) {
    return false;
  }
  // Same instant, different status: only a step forward can be told apart from a repeat.
  if (report.updatedAtMs === known.updatedAtMs) {
    return reportStage !== undefined && (knownStage === undefined || reportStage > knownStage);
  }
  return true;
}

/** The furthest documented stage of two: what Shopify should reflect. */
export function furthestStage(a: string | undefined, b: string): string {
  if (a === undefined) return stageOf(b) === undefined ? 'pending' : b;
  return (stageOf(b) ?? -1) > (stageOf(a) ?? -1) ? b : a;
}
