/**
 * The documents that read orders (API 2026-10). Every export is one complete document, listed in
 * ../documents.ts for the schema and cost tests. A page of orders cannot carry line items: 50
 * orders with lineItems(first: 100) would cost 30,202 and be refused outright.
 */

import { METAFIELD_KEYS, METAFIELD_NAMESPACE } from '../../domain/order-marks.js';

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

// Line items per page of GetOrder and GetOrderLineItems (6 points each): 24 keeps GetOrder at
// 150. Not exported: every export of this file is a document.
const LINE_ITEMS_PAGE_SIZE = 24;

/**
 * One line item: 6 points (the item, its product, variant, inventory item, measurement, weight).
 * Not exported on its own, like the header.
 */
const LINE_ITEM_FIELDS = /* GraphQL */ `
  fragment LineItemFields on LineItem {
    id
    title
    currentQuantity
    unfulfilledQuantity
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
`;

// Fulfillment orders in GetOrder, and lines per fulfillment order: most orders have one or two.
const FULFILLMENT_ORDERS_PAGE_SIZE = 2;
const FULFILLMENT_ORDER_LINES_PAGE_SIZE = 24;

/**
 * One fulfillment order: 56 points (itself, its supported actions, its assigned location and
 * location, its delivery method, its holds, and 24 lines × 2 + 2). What is left to ship, and where, lives here.
 */
const FULFILLMENT_ORDER_FIELDS = /* GraphQL */ `
  fragment OrderFulfillmentOrderFields on FulfillmentOrder {
    id
    status
    fulfillAt
    supportedActions {
      action
    }
    assignedLocation {
      name
      location {
        id
        isFulfillmentService
      }
    }
    deliveryMethod {
      methodType
    }
    fulfillmentHolds {
      displayReason
    }
    lineItems(first: ${FULFILLMENT_ORDER_LINES_PAGE_SIZE}) {
      nodes {
        id
        totalQuantity
        remainingQuantity
        lineItem {
          id
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

/**
 * Requested cost of one order: 264 (the order, its two marks, its address, the first page of
 * 24 line items × 6 + 2, and the first 2 fulfillment orders × 56 + 2). Shopify needs the whole
 * requested cost in the bucket before it runs a query, so the first pages stay small; an order
 * with more reads the rest page by page (GetOrderLineItems, GetOrderFulfillmentOrders,
 * GetFulfillmentOrderLineItems), which only big orders pay for. shipmentError: whether an
 * earlier refusal's reason is on the order, so its registration mark knows what to clear.
 */
const STORE_ORDER_FIELDS = /* GraphQL */ `
  fragment StoreOrderFields on Order {
    ...OrderHeaderFields
    email
    phone
    shipmentError: metafield(namespace: "${METAFIELD_NAMESPACE}", key: "${METAFIELD_KEYS.error}") {
      id
    }
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
    lineItems(first: ${LINE_ITEMS_PAGE_SIZE}) {
      nodes {
        ...LineItemFields
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    fulfillmentOrders(first: ${FULFILLMENT_ORDERS_PAGE_SIZE}) {
      nodes {
        ...OrderFulfillmentOrderFields
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
  ${ORDER_HEADER_FIELDS}
  ${LINE_ITEM_FIELDS}
  ${FULFILLMENT_ORDER_FIELDS}
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
 * The next page of an order's line items: 147 (the order, 24 line items × 6 + 2). updatedAt
 * (free) tells the reader whether the order changed between pages.
 */
export const GET_ORDER_LINE_ITEMS = /* GraphQL */ `
  query GetOrderLineItems($id: ID!, $after: String!) {
    order(id: $id) {
      updatedAt
      lineItems(first: ${LINE_ITEMS_PAGE_SIZE}, after: $after) {
        nodes {
          ...LineItemFields
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
  ${LINE_ITEM_FIELDS}
`;

/**
 * The next fulfillment orders of an order: 563 (the order, 10 × 56 + 2). updatedAt (free) tells
 * the reader whether the order changed between pages. A fulfillment order's lines after its
 * first 24 are read with GetFulfillmentOrderLineItems (../fulfillments/documents.ts).
 */
export const GET_ORDER_FULFILLMENT_ORDERS = /* GraphQL */ `
  query GetOrderFulfillmentOrders($id: ID!, $after: String!) {
    order(id: $id) {
      updatedAt
      fulfillmentOrders(first: 10, after: $after) {
        nodes {
          ...OrderFulfillmentOrderFields
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
  ${FULFILLMENT_ORDER_FIELDS}
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

/**
 * The order with a given name (`#1003`), for staff who know an order by its name only. Shopify's
 * search may match loosely, so the reader checks the name it gets back.
 */
export const FIND_ORDER_BY_NAME = /* GraphQL */ `
  query FindOrderByName($query: String!) {
    orders(first: 1, query: $query) {
      nodes {
        id
        name
      }
    }
  }
`;

/**
 * Which of these ids are orders of the store, and when each was created: for shipments found at
 * the provider that the connector has no record of. 1 point per id asked (at most 100 a request).
 */
export const FIND_ORDERS = /* GraphQL */ `
  query FindOrders($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Order {
        id
        createdAt
      }
    }
  }
`;
