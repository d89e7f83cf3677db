/**
 * Every export is one complete document, listed in ../documents.ts for the schema and cost tests.
 * First pages are enough for nearly every order; the client pages on only when they are not.
 */

import { FULFILLMENT_LINE, FULFILLMENT_ORDER_PLACE, PAGE_INFO } from '../selections.js';

const FULFILLMENT_ORDER_STATE_FIELDS = /* GraphQL */ `
  fragment FulfillmentOrderStateFields on FulfillmentOrder {
    id
    status
    fulfillAt
    ${FULFILLMENT_ORDER_PLACE}
    fulfillmentHolds {
      displayReason
    }
    lineItems(first: 10) {
      nodes {
        remainingQuantity
      }
      ${PAGE_INFO}
    }
  }
`;

const FULFILLMENT_STATE_FIELDS = /* GraphQL */ `
  fragment FulfillmentStateFields on Fulfillment {
    id
    status
    displayStatus
    createdAt
    deliveredAt
    location {
      id
      name
      isFulfillmentService
    }
    fulfillmentLineItems(first: 5) {
      nodes {
        ${FULFILLMENT_LINE}
      }
      ${PAGE_INFO}
    }
    trackingInfo(first: 5) {
      company
      number
      url
    }
  }
`;

/** One request for an ordinary order; fulfillmentsCount tells when fulfillments need paging. */
export const READ_FULFILLMENT_STATE = /* GraphQL */ `
  query ReadFulfillmentState($id: ID!) {
    order(id: $id) {
      id
      name
      cancelledAt
      fulfillmentOrders(first: 5) {
        nodes {
          ...FulfillmentOrderStateFields
        }
        ${PAGE_INFO}
      }
      fulfillmentsCount {
        count
      }
      fulfillments(first: 10) {
        ...FulfillmentStateFields
      }
    }
  }
  ${FULFILLMENT_ORDER_STATE_FIELDS}
  ${FULFILLMENT_STATE_FIELDS}
`;

/** The progress report's look before reporting. Null for an id not found or hidden by scopes. */
export const READ_FULFILLMENT_ORDERS_BY_ID = /* GraphQL */ `
  query ReadFulfillmentOrdersById($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on FulfillmentOrder {
        id
        status
        ${FULFILLMENT_ORDER_PLACE}
      }
    }
  }
`;

export const READ_ORDER_FULFILLMENT_ORDERS = /* GraphQL */ `
  query ReadOrderFulfillmentOrders($id: ID!, $after: String) {
    order(id: $id) {
      id
      fulfillmentOrders(first: 10, after: $after) {
        nodes {
          ...FulfillmentOrderStateFields
        }
        ${PAGE_INFO}
      }
    }
  }
  ${FULFILLMENT_ORDER_STATE_FIELDS}
`;

/** Order.fulfillments is a plain list, not a connection: it pages by `created_at:>='…'`. */
export const READ_ORDER_FULFILLMENTS = /* GraphQL */ `
  query ReadOrderFulfillments($id: ID!, $query: String!) {
    order(id: $id) {
      id
      fulfillments(first: 25, query: $query) {
        ...FulfillmentStateFields
      }
    }
  }
  ${FULFILLMENT_STATE_FIELDS}
`;

export const READ_FULFILLMENT_ORDER_REMAINING_LINES = /* GraphQL */ `
  query ReadFulfillmentOrderRemainingLines($id: ID!, $after: String) {
    fulfillmentOrder(id: $id) {
      id
      lineItems(first: 100, after: $after) {
        nodes {
          remainingQuantity
        }
        ${PAGE_INFO}
      }
    }
  }
`;

export const READ_FULFILLMENT_LINE_ITEMS = /* GraphQL */ `
  query ReadFulfillmentLineItems($id: ID!, $after: String) {
    fulfillment(id: $id) {
      id
      fulfillmentLineItems(first: 100, after: $after) {
        nodes {
          ${FULFILLMENT_LINE}
        }
        ${PAGE_INFO}
      }
    }
  }
`;
