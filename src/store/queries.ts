/**
 * Every Admin GraphQL document the connector sends (API 2026-07). Each export is one complete
 * document; test/store/graphql-schema.test.ts validates them all against the real schema, and the
 * local fake store answers exactly these.
 */

// Not exported on its own: a lone fragment is not a valid document.
const STORE_ORDER_FIELDS = /* GraphQL */ `
  fragment StoreOrderFields on Order {
    id
    name
    createdAt
    updatedAt
    test
    cancelledAt
    displayFinancialStatus
    displayFulfillmentStatus
    tags
    email
    phone
    shippingAddress {
      name
      company
      phone
      address1
      address2
      city
      zip
      countryCodeV2
    }
    lineItems(first: 100) {
      nodes {
        title
        currentQuantity
        requiresShipping
        product {
          productType
        }
        variant {
          inventoryItem {
            measurement {
              weight {
                unit
                value
              }
            }
          }
        }
      }
      pageInfo {
        hasNextPage
      }
    }
  }
`;

export const GET_ORDER = /* GraphQL */ `
  query GetOrder($id: ID!) {
    order(id: $id) {
      ...StoreOrderFields
    }
  }
  ${STORE_ORDER_FIELDS}
`;

export const LIST_ORDERS_UPDATED_SINCE = /* GraphQL */ `
  query ListOrdersUpdatedSince($first: Int!, $after: String, $query: String!) {
    orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
      nodes {
        ...StoreOrderFields
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
  ${STORE_ORDER_FIELDS}
`;

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

export const GET_FULFILLMENT_ORDERS = /* GraphQL */ `
  query GetFulfillmentOrders($id: ID!) {
    order(id: $id) {
      id
      fulfillmentOrders(first: 50) {
        nodes {
          id
          status
          lineItems(first: 250) {
            nodes {
              id
              totalQuantity
              remainingQuantity
              lineItem {
                id
              }
            }
          }
        }
      }
    }
  }
`;

export const CREATE_FULFILLMENT = /* GraphQL */ `
  mutation CreateFulfillment($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment {
        id
        status
        trackingInfo(first: 10) {
          company
          number
          url
        }
      }
      userErrors {
        field
        message
      }
    }
  }
`;

export const UPDATE_FULFILLMENT_TRACKING = /* GraphQL */ `
  mutation UpdateFulfillmentTracking(
    $fulfillmentId: ID!
    $trackingInfoInput: FulfillmentTrackingInput!
    $notifyCustomer: Boolean
  ) {
    fulfillmentTrackingInfoUpdate(
      fulfillmentId: $fulfillmentId
      trackingInfoInput: $trackingInfoInput
      notifyCustomer: $notifyCustomer
    ) {
      fulfillment {
        id
        status
        trackingInfo(first: 10) {
          company
          number
          url
        }
      }
      userErrors {
        field
        message
      }
    }
  }
`;

export const CREATE_FULFILLMENT_EVENT = /* GraphQL */ `
  mutation CreateFulfillmentEvent($fulfillmentEvent: FulfillmentEventInput!) {
    fulfillmentEventCreate(fulfillmentEvent: $fulfillmentEvent) {
      fulfillmentEvent {
        id
        status
        happenedAt
      }
      userErrors {
        field
        message
      }
    }
  }
`;
