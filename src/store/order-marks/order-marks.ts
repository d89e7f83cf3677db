import type { z } from 'zod';
import { marksSeenOn } from '../../domain/order-marks.js';
import { StoreUserError } from '../errors.js';
import type { StoreTransport } from '../transport/admin-transport.js';
import { required } from '../transport/answers.js';
import { throwOnUserErrors } from '../transport/graphql-request.js';
import { orderGidOf, orderNotFound } from '../transport/order-ids.js';
import { combinedWriteDocument } from './combined-write.js';
import * as D from './documents.js';
import * as R from './responses.js';
import type { MetafieldKey, OrderMarks } from './types.js';

const METAFIELDS_PER_CALL = 25;

export function createOrderMarks({ send }: StoreTransport): OrderMarks {
  const tagsWrite =
    <F extends string>(
      operation: string,
      document: string,
      schema: z.ZodType<Record<F, R.Payload | null>>,
      field: F,
    ) =>
    async (orderId: string, tags: string[]) => {
      const id = orderGidOf(orderId, operation);
      if (tags.length === 0) return;
      const data = await send(operation, document, schema, { id, tags });
      throwOnUserErrors(operation, required<R.Payload>(data[field], operation).userErrors);
    };

  return {
    async setOrderMetafields(orderId, entries) {
      const operation = 'SetOrderMetafields';
      const id = orderGidOf(orderId, operation);
      if (entries.length === 0) return;
      // One write, all or nothing; splitting would give up that silently.
      refuseOverMetafieldLimit(entries.length, operation);
      const data = await send(operation, D.SET_METAFIELDS, R.orderUpdateData, {
        order: { id, metafields: entries },
      });
      throwOnUserErrors(operation, required(data.orderUpdate, operation).userErrors);
    },

    async deleteOrderMetafields(orderId, keys) {
      const operation = 'DeleteOrderMetafields';
      const ownerId = orderGidOf(orderId, operation);
      // Shopify wants at least one identifier.
      if (keys.length === 0) return;
      // metafieldsDelete takes up to 25 at once; we never need more.
      refuseOverMetafieldLimit(keys.length, operation);
      const data = await send(operation, D.DELETE_METAFIELDS, R.deleteMetafieldsData, {
        metafields: identifiers(ownerId, keys),
      });
      // A null entry in deletedMetafields is a metafield that was not there: already the aim.
      throwOnUserErrors(operation, required(data.metafieldsDelete, operation).userErrors);
    },

    addOrderTags: tagsWrite('AddOrderTags', D.ADD_TAGS, R.addTagsData, 'tagsAdd'),
    removeOrderTags: tagsWrite('RemoveOrderTags', D.REMOVE_TAGS, R.removeTagsData, 'tagsRemove'),

    async writeOrderMarks(orderId, changes) {
      const operation = 'WriteOrderMarks';
      const id = orderGidOf(orderId, operation);
      const { setMetafields = [], deleteMetafields = [], addTags = [], removeTags = [] } = changes;
      refuseOverMetafieldLimit(setMetafields.length, operation);
      refuseOverMetafieldLimit(deleteMetafields.length, operation);
      const parts = {
        setMetafields: setMetafields.length > 0,
        deleteMetafields: deleteMetafields.length > 0,
        addTags: addTags.length > 0,
        removeTags: removeTags.length > 0,
      };
      if (!Object.values(parts).some(Boolean)) return;
      const data = await send(operation, combinedWriteDocument(parts), R.writeOrderMarksData, {
        ...(parts.addTags || parts.removeTags ? { id } : {}),
        ...(parts.setMetafields ? { order: { id, metafields: setMetafields } } : {}),
        ...(parts.deleteMetafields ? { deleteMetafields: identifiers(id, deleteMetafields) } : {}),
        ...(parts.addTags ? { addTags } : {}),
        ...(parts.removeTags ? { removeTags } : {}),
      });
      const answers = {
        setMetafields: data.orderUpdate,
        deleteMetafields: data.metafieldsDelete,
        addTags: data.tagsAdd,
        removeTags: data.tagsRemove,
      };
      // Every part's refusals together: staff fix them at once.
      const refusals = (Object.keys(parts) as (keyof typeof parts)[]).flatMap((part) =>
        parts[part] ? required(answers[part] ?? null, operation).userErrors : [],
      );
      throwOnUserErrors(operation, refusals);
    },

    async readOrderMarks(orderId) {
      const operation = 'GetOrderMarks';
      const id = orderGidOf(orderId, operation);
      const data = await send(operation, D.GET_ORDER_MARKS, R.getOrderMarksData, { id });
      if (!data.order) return null;
      return marksSeenOn({
        tags: data.order.tags,
        shipmentOrderNumber: data.order.orderNumber?.value ?? null,
        shipmentError: data.order.error !== null,
      });
    },

    async appendOrderNote(orderId, text) {
      const operation = 'UpdateOrderNote';
      const id = orderGidOf(orderId, operation);
      const line = text.trim();
      if (line === '') return;
      const current = await send('GetOrderNote', D.GET_ORDER_NOTE, R.getOrderNoteData, { id });
      if (!current.order) throw orderNotFound(orderId, operation);
      const note = current.order.note ?? '';
      // A retried job must not write the same line twice.
      if (note.split('\n').some((existing) => existing.trim() === line)) return;
      // Shopify has no "append": a hand edit between our read and write is lost, a rare window
      // we accept.
      const data = await send(operation, D.UPDATE_ORDER_NOTE, R.orderUpdateData, {
        input: { id, note: note ? `${note.replace(/\n+$/, '')}\n${line}` : line },
      });
      throwOnUserErrors(operation, required(data.orderUpdate, operation).userErrors);
    },
  };
}

function refuseOverMetafieldLimit(count: number, operation: string): void {
  if (count <= METAFIELDS_PER_CALL) return;
  throw new StoreUserError(operation, [
    { field: ['metafields'], message: `at most ${METAFIELDS_PER_CALL} metafields per call` },
  ]);
}

function identifiers(ownerId: string, keys: MetafieldKey[]) {
  return keys.map(({ namespace, key }) => ({ ownerId, namespace, key }));
}
