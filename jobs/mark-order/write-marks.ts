import { METAFIELD_KEYS, METAFIELD_NAMESPACE, ORDER_TAGS } from '../../src/domain/order-marks.js';
import { describeChanges, FINGERPRINT_PARTS } from '../../src/domain/shipment-fingerprint.js';
import type { Logger } from '../../src/log.js';
import type { OrderRecords } from '../../src/records/order-records.js';
import type { MetafieldEntry, MetafieldKey, OrderMarks } from '../../src/store/types.js';
import {
  type WriteStatusDeps,
  writeShipmentStatus,
} from '../write-shipment-status/write-status.js';
import type { MarkOrderKind } from './payload.js';

export interface OrderMarksDeps {
  store: OrderMarks;
  records: Pick<OrderRecords, 'get' | 'recordEditMarked'>;
  /** The status sync's record: once it follows the shipment, it owns the status metafields. */
  tracking: WriteStatusDeps['tracking'];
  logger: Logger;
}

const text = (key: string, value: string, multiLine = false): MetafieldEntry => ({
  namespace: METAFIELD_NAMESPACE,
  key,
  value,
  type: multiLine ? 'multi_line_text_field' : 'single_line_text_field',
});

const named = (key: string): MetafieldKey => ({ namespace: METAFIELD_NAMESPACE, key });

/**
 * Writes the order's shipment state onto the Shopify order, from the order record. Every write
 * is idempotent (metafields set or deleted, tags added or removed), so a retried or replayed job
 * does no harm. Marks of an earlier refusal go once the order is registered or cancelled.
 */
export async function writeOrderMarks(
  orderId: string,
  kind: MarkOrderKind,
  deps: OrderMarksDeps,
): Promise<'written' | 'stale'> {
  const record = await deps.records.get(orderId);

  switch (kind) {
    case 'registered': {
      if (record?.state !== 'registered' || !record.orderNumber) return stale(orderId, kind, deps);
      // Followed by the sync: the newest status it knows, written the way its own job writes it
      // (read again after writing), so a late mark never puts an older status back.
      const followed = await writeShipmentStatus(orderId, deps);
      if (followed === 'unknown') {
        await deps.store.setOrderMetafields(orderId, [
          text(METAFIELD_KEYS.orderNumber, record.orderNumber),
          text(METAFIELD_KEYS.status, record.partnerStatus ?? 'pending'),
        ]);
      }
      // An earlier refusal's reason no longer holds (absent on most orders: then a no-op).
      await deps.store.deleteOrderMetafields(orderId, [named(METAFIELD_KEYS.error)]);
      await deps.store.addOrderTags(orderId, [ORDER_TAGS.registered]);
      await deps.store.removeOrderTags(orderId, [ORDER_TAGS.error]);
      return 'written';
    }
    case 'failed': {
      // Registered meanwhile (a replay succeeded): the error no longer holds.
      if (record?.state !== 'failed' || !record.reason) return stale(orderId, kind, deps);
      await deps.store.setOrderMetafields(orderId, [
        text(METAFIELD_KEYS.status, 'error'),
        text(METAFIELD_KEYS.error, record.reason, true),
      ]);
      await deps.store.addOrderTags(orderId, [ORDER_TAGS.error]);
      return 'written';
    }
    case 'cancelled_after_registration': {
      if (!record?.cancelledAfterRegistrationAt) return stale(orderId, kind, deps);
      await deps.store.addOrderTags(orderId, [ORDER_TAGS.cancelAtProvider]);
      await deps.store.appendOrderNote(
        orderId,
        `Cancelled after shipment ${record.orderNumber ?? '(unknown)'} was registered with the provider. The API cannot cancel it: ask the provider to cancel it.`,
      );
      return 'written';
    }
    case 'cancelled_after_failure': {
      // Refused, then cancelled in Shopify: it will never be shipped, so there is nothing left to
      // fix. The status "error" goes with the reason: no shipment exists to have a status.
      if (record?.state !== 'skipped' || record.skipCode !== 'cancelled') {
        return stale(orderId, kind, deps);
      }
      await deps.store.deleteOrderMetafields(orderId, [
        named(METAFIELD_KEYS.status),
        named(METAFIELD_KEYS.error),
      ]);
      await deps.store.removeOrderTags(orderId, [ORDER_TAGS.error]);
      return 'written';
    }
    case 'order_edited': {
      const changes = FINGERPRINT_PARTS.filter((part) =>
        record?.editReportedChanges?.split(',').includes(part),
      );
      if (record?.state !== 'registered' || !record.editReportedFingerprint || !changes.length) {
        return stale(orderId, kind, deps);
      }
      await deps.store.addOrderTags(orderId, [ORDER_TAGS.orderEdited]);
      // Names what changed, never the values. The report's time makes each edit its own line,
      // and a retried job finds its line already there.
      await deps.store.appendOrderNote(
        orderId,
        `Edited after shipment ${record.orderNumber ?? '(unknown)'} was registered with the provider (noticed ${record.editReportedAt ?? 'now'}): ${describeChanges(changes)} changed. The API cannot update a shipment: tell the provider.`,
      );
      await deps.records.recordEditMarked(orderId, record.editReportedFingerprint);
      return 'written';
    }
  }
}

function stale(orderId: string, kind: MarkOrderKind, deps: OrderMarksDeps): 'stale' {
  deps.logger.info({ orderId, kind }, 'order marks no longer match the order record; skipped');
  return 'stale';
}
