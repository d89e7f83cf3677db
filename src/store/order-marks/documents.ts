/**
 * The documents that mark an order for staff: metafields, tags and the note (API 2026-07). Every
 * export is one complete document, listed in ../documents.ts for the schema and cost tests.
 */

export const SET_METAFIELDS = /* GraphQL */ `
  mutation SetOrderMetafields($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields {
        id
        namespace
        key
      }
      userErrors {
        field
        message
        code
      }
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
      userErrors {
        field
        message
      }
    }
  }
`;

export const ADD_TAGS = /* GraphQL */ `
  mutation AddOrderTags($id: ID!, $tags: [String!]!) {
    tagsAdd(id: $id, tags: $tags) {
      node {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`;

export const REMOVE_TAGS = /* GraphQL */ `
  mutation RemoveOrderTags($id: ID!, $tags: [String!]!) {
    tagsRemove(id: $id, tags: $tags) {
      node {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`;

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
      userErrors {
        field
        message
      }
    }
  }
`;
