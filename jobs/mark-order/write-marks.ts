import {
  METAFIELD_KEYS,
  METAFIELD_NAMESPACE,
  ORDER_TAGS,
  type OrderMarksSeen,
} from '../../src/domain/order-marks.js';
import { describeChanges, FINGERPRINT_PARTS } from '../../src/domain/shipment-fingerprint.js';
import { orderNotFound } from '../../src/store/transport/order-ids.js';
import type { MetafieldKey, OrderMarkChanges, OrderMarks } from '../../src/store/types.js';
import type { JobContext } from '../context.js';
import { type StatusSettings, statusMetafieldsDue } from '../shipment-updates/follow-ups.js';
import {
  metafieldText as text,
  type WriteStatusDeps,
  writeShipmentStatus,
} from '../write-shipment-status/write-status.js';
import type { MarkOrderKind } from './payload.js';

/** `tracking`: once it follows the shipment, the status sync owns the status metafields. */
export interface OrderMarksDeps extends WriteStatusDeps {
  store: OrderMarks;
  records: Pick<JobContext['records'], 'get' | 'recordEditMarked'>;
  settings: { sync: StatusSettings };
}

const named = (key: string): MetafieldKey => ({ namespace: METAFIELD_NAMESPACE, key });

/** Every write is idempotent, so a retried or replayed job does no harm. */
export async function writeOrderMarks(
  orderId: string,
  kind: MarkOrderKind,
  deps: OrderMarksDeps,
  seen?: OrderMarksSeen,
): Promise<'written' | 'stale'> {
  const record = await deps.records.get(orderId);
  const stale = (): 'stale' => {
    deps.logger.info({ orderId, kind }, 'order marks no longer match the order record; skipped');
    return 'stale';
  };
  switch (kind) {
    case 'registered': {
      if (record?.state !== 'registered' || !record.orderNumber) return stale();
      const has = seen ?? (await deps.store.readOrderMarks(orderId));
      if (!has) throw orderNotFound(orderId, 'GetOrderMarks');
      const marks: OrderMarkChanges = {
        addTags: has.tags.includes(ORDER_TAGS.registered) ? [] : [ORDER_TAGS.registered],
        removeTags: has.tags.includes(ORDER_TAGS.error) ? [ORDER_TAGS.error] : [],
      };
      const shipment = await deps.tracking.get(orderId);
      if (shipment && statusMetafieldsDue(shipment, deps.settings.sync)) {
        // Written as the sync's job writes it, so a late mark never puts an older status back.
        const followed = await writeShipmentStatus(orderId, deps, {
          shipment,
          firstWrite: (metafields) =>
            deps.store.writeOrderMarks(orderId, {
              ...marks,
              setMetafields: metafields,
              deleteMetafields: has.error ? [named(METAFIELD_KEYS.error)] : [],
            }),
        });
        if (followed === 'written') return 'written';
      }
      // Tag and order number show it registered. A refusal's status "error" goes too, unless the
      // sync keeps this order's status current.
      const refusalMarks = [
        named(METAFIELD_KEYS.error),
        ...(shipment?.writtenStatus ? [] : [named(METAFIELD_KEYS.status)]),
      ];
      await deps.store.writeOrderMarks(orderId, {
        ...marks,
        deleteMetafields: has.error ? refusalMarks : [],
        setMetafields:
          has.orderNumber === record.orderNumber
            ? []
            : [text(METAFIELD_KEYS.orderNumber, record.orderNumber)],
      });
      return 'written';
    }
    case 'failed': {
      // Registered meanwhile (a replay succeeded).
      if (record?.state !== 'failed' || !record.reason) return stale();
      // A new reason is always written, so the order is not read first.
      await deps.store.writeOrderMarks(orderId, {
        setMetafields: [
          text(METAFIELD_KEYS.status, 'error'),
          text(METAFIELD_KEYS.error, record.reason, true),
        ],
        addTags: seen?.tags.includes(ORDER_TAGS.error) ? [] : [ORDER_TAGS.error],
      });
      return 'written';
    }
    case 'cancelled_after_registration': {
      if (!record?.cancelledAfterRegistrationAt) return stale();
      await deps.store.addOrderTags(orderId, [ORDER_TAGS.cancelAtProvider]);
      await deps.store.appendOrderNote(
        orderId,
        `Cancelled after shipment ${record.orderNumber ?? '(unknown)'} was registered with the provider. The API cannot cancel it: ask the provider to cancel it.`,
      );
      return 'written';
    }
    case 'cancelled_after_failure': {
      // Nothing left to fix, and no shipment exists to have a status.
      if (record?.state !== 'skipped' || record.skipCode !== 'cancelled') return stale();
      await deps.store.writeOrderMarks(orderId, {
        deleteMetafields: [named(METAFIELD_KEYS.status), named(METAFIELD_KEYS.error)],
        removeTags: [ORDER_TAGS.error],
      });
      return 'written';
    }
    case 'order_edited': {
      const changes = FINGERPRINT_PARTS.filter((part) =>
        record?.editReportedChanges?.split(',').includes(part),
      );
      if (record?.state !== 'registered' || !record.editReportedFingerprint || !changes.length) {
        return stale();
      }
      await deps.store.addOrderTags(orderId, [ORDER_TAGS.orderEdited]);
      // Never the values. The report's time makes each edit its own line, so a retry finds it.
      await deps.store.appendOrderNote(
        orderId,
        `Edited after shipment ${record.orderNumber ?? '(unknown)'} was registered with the provider (noticed ${record.editReportedAt ?? 'now'}): ${describeChanges(changes)} changed. The API cannot update a shipment: tell the provider.`,
      );
      await deps.records.recordEditMarked(orderId, record.editReportedFingerprint);
      return 'written';
    }
  }
}
