import {
  changedParts,
  decodeFingerprint,
  type ShipmentFingerprint,
} from '../../src/domain/shipment-fingerprint.js';
import type { Logger } from '../../src/log.js';
import type { Counters } from '../../src/metrics/counters.js';
import { JobRefusedError } from '../../src/queue/failure-policy.js';
import type { OrderRecord } from '../../src/records/order-records.js';

/**
 * The order failed (refused, or given up on) and nothing a shipment is made from has changed
 * since: its job fails again at once with the same reason, without calling the provider.
 */
export class UnchangedRefusalError extends JobRefusedError {}

/**
 * Whether the order stands as it was when it failed. The failure's own mark on the order, and
 * every reconciliation pass in the overlap, bring such an order back; sending it again would only
 * be refused again (or start another round of retries against an outage). Staff replays
 * (`connector order <id> --replay`, a retry in the board) are not asked this.
 */
export function unchangedSinceFailure(
  record: OrderRecord | null,
  current: ShipmentFingerprint,
): record is OrderRecord {
  if (record?.state !== 'failed') return false;
  const failed = decodeFingerprint(record.failedFingerprint);
  return failed !== null && changedParts(failed, current).length === 0;
}

/**
 * A staff retry or replay refused again with the order as it was when it was first refused (same
 * fingerprint, same reason): the refusal, headed by one line that says the retry changed nothing.
 * Null when the order had changed, or was not refused before.
 */
export function refusedAgainUnchanged(
  before: OrderRecord | null,
  after: OrderRecord | null,
  refusal: JobRefusedError,
): UnchangedRefusalError | null {
  if (before?.state !== 'failed' || !before.failedFingerprint) return null;
  if (after?.failedFingerprint !== before.failedFingerprint || after.reason !== before.reason) {
    return null;
  }
  return new UnchangedRefusalError(
    `Retried unchanged: the order is as it was when it was refused (${minuteOf(before.updatedAt)}). Fix it in Shopify, then retry.\n${refusal.message}`,
  );
}

/** `2026-11-26T11:41:52.056Z` → `2026-11-26 11:41 UTC`. */
function minuteOf(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export async function keepUnchangedRefusal(
  orderId: string,
  record: OrderRecord,
  deps: { counters: Counters; logger: Logger },
): Promise<UnchangedRefusalError> {
  await deps.counters.increment('unchanged_refusals_not_resent');
  deps.logger.info({ orderId }, 'order unchanged since it failed: not sent again');
  return new UnchangedRefusalError(
    record.reason ?? 'The order has not changed since it failed. Fix it in Shopify, or replay it.',
  );
}
