/** Each export is a complete document, listed in ../documents.ts for the schema and cost tests. */

import { METAFIELD_KEYS, METAFIELD_NAMESPACE } from '../../domain/order-marks.js';
import { USER_ERRORS } from '../selections.js';
import { combinedWriteDocument } from './combined-write.js';

/** Through orderUpdate, cheaper than metafieldsSet; a metafield is updated, or made if absent. */
export const SET_METAFIELDS = /* GraphQL */ `
  mutation SetOrderMetafields($order: OrderInput!) {
    orderUpdate(input: $order) {
      ${USER_ERRORS}
    }
  }
`;

// Deleting a metafield the order does not have is no error: its deletedMetafields entry is null.
export const DELETE_METAFIELDS = /* GraphQL */ `
  mutation DeleteOrderMetafields($metafields: [MetafieldIdentifierInput!]!) {
    metafieldsDelete(metafields: $metafields) {
      deletedMetafields {
        ownerId
        namespace
        key
      }
      ${USER_ERRORS}
    }
  }
`;

const tagsWrite = (name: string, field: string) => /* GraphQL */ `
  mutation ${name}($id: ID!, $tags: [String!]!) {
    ${field}(id: $id, tags: $tags) {
      node {
        id
      }
      ${USER_ERRORS}
    }
  }
`;

export const ADD_TAGS = tagsWrite('AddOrderTags', 'tagsAdd');
export const REMOVE_TAGS = tagsWrite('RemoveOrderTags', 'tagsRemove');

export const GET_ORDER_NOTE = /* GraphQL */ `
  query GetOrderNote($id: ID!) {
    order(id: $id) {
      id
      note
    }
  }
`;

export const UPDATE_ORDER_NOTE = /* GraphQL */ `
  mutation UpdateOrderNote($input: OrderInput!) {
    orderUpdate(input: $input) {
      order {
        id
        note
      }
      ${USER_ERRORS}
    }
  }
`;

/** Every write an order's marks may need; the client sends only the slice that differs. */
export const WRITE_ORDER_MARKS = combinedWriteDocument({
  setMetafields: true,
  deleteMetafields: true,
  addTags: true,
  removeTags: true,
});

/** For a mark job that was not handed the marks. */
export const GET_ORDER_MARKS = /* GraphQL */ `
  query GetOrderMarks($id: ID!) {
    order(id: $id) {
      tags
      orderNumber: metafield(namespace: "${METAFIELD_NAMESPACE}", key: "${METAFIELD_KEYS.orderNumber}") {
        value
      }
      error: metafield(namespace: "${METAFIELD_NAMESPACE}", key: "${METAFIELD_KEYS.error}") {
        id
      }
    }
  }
`;
