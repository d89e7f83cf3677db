/**
 * Where a shipment stands at the provider, and which report of it wins. The provider has no
 * events: the sync reads statuses from its list, and reports can arrive late or twice (a page read
 * again, a run resumed), so a status only ever moves forward.
 */

/** The provider's documented statuses, in the order a shipment passes them. */
export const SHIPMENT_STAGES = ['pending', 'processing', 'shipped', 'delivered'] as const;

/** Statuses after which nothing changes at the provider. */
export function isFinalStatus(status: string): boolean {
  return status === 'delivered' || status === 'cancelled';
}

/**
 * How far a documented status is along the way; undefined for a status the contract does not
 * document (new ones may appear, and count as "in progress": they neither advance nor go back).
 */
export function stageOf(status: string): number | undefined {
  if (status === 'cancelled') return SHIPMENT_STAGES.length - 1;
  const index = (SHIPMENT_STAGES as readonly string[]).indexOf(status);
  return index < 0 ? undefined : index;
}

/** Whether a shipment in this status has been handed to a carrier (so has a tracking number). */
export function isHandedToCarrier(status: string): boolean {
  return status === 'shipped' || status === 'delivered';
}

export interface StatusReport {
  status: string;
  /** The provider's updated_at, as an instant. */
  updatedAtMs: number;
}

/** What is known of a shipment: its last status and the furthest documented stage it reached. */
export interface KnownStatus extends StatusReport {
  stage: string;
}

/**
 * Whether `report` replaces what is known (`known`, undefined when nothing is). An older report
 * never overwrites a newer one, a documented status never moves back behind the furthest stage
 * reached (a late "shipped" after "delivered", even with an undocumented status between), and a
 * final status is never left. An undocumented status is taken when it is newer: staff see it,
 * while the stage reached stays where it was.
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
  const stageA = stageOf(a) ?? -1;
  const stageB = stageOf(b) ?? -1;
  return stageB > stageA ? b : a;
}
