/**
 * Every export is one complete document, listed in ../documents.ts for the schema and cost tests.
 * A page of orders cannot carry line items: 50 orders × lineItems(first: 100) would be refused.
 */

import { METAFIELD_KEYS, METAFIELD_NAMESPACE } from '../../domain/order-marks.js';
import { FULFILLMENT_ORDER_LINE, FULFILLMENT_ORDER_PLACE, PAGE_INFO } from '../selections.js';

// Fragments stay unexported: a lone fragment is not a valid document.
// shipmentOrderNumber: the connector's mark on a registered order.
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

const LINE_ITEMS_PAGE_SIZE = 24;

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

const FULFILLMENT_ORDER_FIELDS = /* GraphQL */ `
  fragment OrderFulfillmentOrderFields on FulfillmentOrder {
    id
    status
    fulfillAt
    ${FULFILLMENT_ORDER_PLACE}
    deliveryMethod {
      methodType
    }
    fulfillmentHolds {
      displayReason
    }
    lineItems(first: 24) {
      nodes {
        ${FULFILLMENT_ORDER_LINE}
      }
      ${PAGE_INFO}
    }
  }
`;

/**
 * Shopify needs the whole requested cost in the bucket before it runs a query, so first pages stay
 * small: most orders have one or two fulfillment orders. shipmentError: whether a refusal's reason
 * is on the order, for the mark to clear.
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
      ${PAGE_INFO}
    }
    fulfillmentOrders(first: 2) {
      nodes {
        ...OrderFulfillmentOrderFields
      }
      ${PAGE_INFO}
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

/** updatedAt tells whether the order changed between pages. */
export const GET_ORDER_LINE_ITEMS = /* GraphQL */ `
  query GetOrderLineItems($id: ID!, $after: String!) {
    order(id: $id) {
      updatedAt
      lineItems(first: ${LINE_ITEMS_PAGE_SIZE}, after: $after) {
        nodes {
          ...LineItemFields
        }
        ${PAGE_INFO}
      }
    }
  }
  ${LINE_ITEM_FIELDS}
`;

/** Later lines: GetFulfillmentOrderLineItems. */
export const GET_ORDER_FULFILLMENT_ORDERS = /* GraphQL */ `
  query GetOrderFulfillmentOrders($id: ID!, $after: String!) {
    order(id: $id) {
      updatedAt
      fulfillmentOrders(first: 10, after: $after) {
        nodes {
          ...OrderFulfillmentOrderFields
        }
        ${PAGE_INFO}
      }
    }
  }
  ${FULFILLMENT_ORDER_FIELDS}
`;

/** Line items and addresses are read per order (GetOrder). */
export const LIST_ORDERS_UPDATED_SINCE = /* GraphQL */ `
  query ListOrdersUpdatedSince($first: Int!, $after: String, $query: String!) {
    orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
      nodes {
        ...OrderHeaderFields
        requiresShipping
      }
      ${PAGE_INFO}
    }
  }
  ${ORDER_HEADER_FIELDS}
`;

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

/** For shipments at the provider with no record here. */
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
