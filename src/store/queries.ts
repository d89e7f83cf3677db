/**
 * Every Admin GraphQL document the connector sends (API 2026-07). Each export is one complete
 * document; test/store/graphql-schema.test.ts validates them all against the real schema,
 * test/store/query-cost.test.ts holds each under Shopify's limit of 1,000 points of requested
 * cost per query, and the local fake store answers exactly these.
 *
 * Requested cost is counted before Shopify runs a query, from what it asks for: 1 per object,
 * 0 per scalar or enum, and a connection 2 + `first` × the cost of one node, nested
 * multiplicatively. A page of orders therefore cannot carry line items: 50 orders with
 * lineItems(first: 100) would cost 30,202 and be refused outright.
 */

import { METAFIELD_KEYS, METAFIELD_NAMESPACE } from '../domain/order-marks.js';

// Not exported on their own: a lone fragment is not a valid document.
// shipmentOrderNumber: the mark the connector wrote on a registered order (1 point per order).
const ORDER_HEADER_FIELDS = /* GraphQL */ `
  fragment OrderHeaderFields on Order {
    id
    name
    createdAt
    updatedAt
    test
    cancelledAt
    displayFinancialStatus
    displayFulfillmentStatus
    tags
    shipmentOrderNumber: metafield(namespace: "${METAFIELD_NAMESPACE}", key: "${METAFIELD_KEYS.orderNumber}") {
      value
    }
  }
`;

/** Requested cost of one order: 605 (the order, its mark, its address, 100 line items × 6 objects). */
const STORE_ORDER_FIELDS = /* GraphQL */ `
  fragment StoreOrderFields on Order {
    ...OrderHeaderFields
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
  ${ORDER_HEADER_FIELDS}
`;

export const GET_ORDER = /* GraphQL */ `
  query GetOrder($id: ID!) {
    order(id: $id) {
      ...StoreOrderFields
    }
  }
  ${STORE_ORDER_FIELDS}
`;

/**
 * Scalars and one metafield, so each order costs 2: with the client's page of 100 the query costs 202.
 * Line items and addresses are read per order (GetOrder) by the worker that registers it.
 */
export const LIST_ORDERS_UPDATED_SINCE = /* GraphQL */ `
  query ListOrdersUpdatedSince($first: Int!, $after: String, $query: String!) {
    orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
      nodes {
        ...OrderHeaderFields
        requiresShipping
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
  ${ORDER_HEADER_FIELDS}
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

const FULFILLMENT_ORDER_LINE_FIELDS = /* GraphQL */ `
  fragment FulfillmentOrderLineFields on FulfillmentOrderLineItem {
    id
    totalQuantity
    remainingQuantity
    lineItem {
      id
    }
  }
`;

/**
 * Five fulfillment orders with 50 lines each: 3 + 5 × (3 + 50 × 2) = 518. The client pages on
 * for an order with more fulfillment orders, and with GetFulfillmentOrderLineItems for one with
 * more lines.
 */
export const GET_FULFILLMENT_ORDERS = /* GraphQL */ `
  query GetFulfillmentOrders($id: ID!, $after: String) {
    order(id: $id) {
      id
      fulfillmentOrders(first: 5, after: $after) {
        nodes {
          id
          status
          lineItems(first: 50) {
            nodes {
              ...FulfillmentOrderLineFields
            }
            pageInfo {
              hasNextPage
              endCursor
            }
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
  ${FULFILLMENT_ORDER_LINE_FIELDS}
`;

/** The lines of one fulfillment order after the first 50: 3 + 250 × 2 = 503. */
export const GET_FULFILLMENT_ORDER_LINE_ITEMS = /* GraphQL */ `
  query GetFulfillmentOrderLineItems($id: ID!, $after: String) {
    fulfillmentOrder(id: $id) {
      id
      lineItems(first: 250, after: $after) {
        nodes {
          ...FulfillmentOrderLineFields
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
  ${FULFILLMENT_ORDER_LINE_FIELDS}
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
