/**
 * The documents that read an order's fulfillment state for the status sync (API 2026-10). Every
 * export is one complete document, listed in ../documents.ts for the schema and cost tests.
 *
 * A fulfillment order costs 17: itself, supportedActions, assignedLocation and its location,
 * fulfillmentHolds (1 each), and its first 10 lines' remainingQuantity (2 + 10). Only the first
 * 10 lines are read: enough to see whether something is left in nearly every order; the client
 * reads on (ReadFulfillmentOrderRemainingLines) only while every line read so far is done.
 * A fulfillment costs 19: itself, its location, up to 5 tracking entries and its first 5 lines
 * with their line items (2 + 5 × 2): enough to tell whether it holds units the provider was
 * asked to ship for nearly every fulfillment; the client reads the lines of a bigger one on
 * (ReadFulfillmentLineItems).
 */

const FULFILLMENT_ORDER_STATE_FIELDS = /* GraphQL */ `
  fragment FulfillmentOrderStateFields on FulfillmentOrder {
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
    fulfillmentHolds {
      displayReason
    }
    lineItems(first: 10) {
      nodes {
        remainingQuantity
      }
      pageInfo {
        hasNextPage
        endCursor
      }
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
        quantity
        lineItem {
          id
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    trackingInfo(first: 5) {
      company
      number
      url
    }
  }
`;

/**
 * One request for an ordinary order: 1 (order) + 2 + 5 × 17 (fulfillment orders) + 1 (count)
 * + 10 × 19 (fulfillments) = 279. More fulfillment orders page with
 * ReadOrderFulfillmentOrders; more than 10 fulfillments (fulfillmentsCount says so) page with
 * ReadOrderFulfillments.
 */
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
        pageInfo {
          hasNextPage
          endCursor
        }
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

/**
 * Named fulfillment orders as they are now (where, what state, what the app may do): the
 * progress report's look before reporting, 4 per fulfillment order. An id not found, or of a
 * fulfillment order the app's scopes do not show, answers null.
 */
export const READ_FULFILLMENT_ORDERS_BY_ID = /* GraphQL */ `
  query ReadFulfillmentOrdersById($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on FulfillmentOrder {
        id
        status
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
      }
    }
  }
`;

/** The fulfillment orders after the first five, ten at a time: 1 + 2 + 10 × 17 = 173. */
export const READ_ORDER_FULFILLMENT_ORDERS = /* GraphQL */ `
  query ReadOrderFulfillmentOrders($id: ID!, $after: String) {
    order(id: $id) {
      id
      fulfillmentOrders(first: 10, after: $after) {
        nodes {
          ...FulfillmentOrderStateFields
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
  ${FULFILLMENT_ORDER_STATE_FIELDS}
`;

/**
 * Order.fulfillments is a plain list, not a connection: it pages by creation time instead
 * (`query: "created_at:>='…'"`), 25 at a time: 1 + 25 × 19 = 476.
 */
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

/** A fulfillment order's lines after the first page, remaining quantities only: 1 + 2 + 100. */
export const READ_FULFILLMENT_ORDER_REMAINING_LINES = /* GraphQL */ `
  query ReadFulfillmentOrderRemainingLines($id: ID!, $after: String) {
    fulfillmentOrder(id: $id) {
      id
      lineItems(first: 100, after: $after) {
        nodes {
          remainingQuantity
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`;

/** A fulfillment's lines after its first five: 1 + 2 + 100 × 2 = 203. */
export const READ_FULFILLMENT_LINE_ITEMS = /* GraphQL */ `
  query ReadFulfillmentLineItems($id: ID!, $after: String) {
    fulfillment(id: $id) {
      id
      fulfillmentLineItems(first: 100, after: $after) {
        nodes {
          quantity
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
  }
`;

/** Reports progress on a merchant-managed fulfillment order (OPEN or IN_PROGRESS). */
export const REPORT_FULFILLMENT_ORDER_PROGRESS = /* GraphQL */ `
  mutation ReportFulfillmentOrderProgress(
    $id: ID!
    $progressReport: FulfillmentOrderReportProgressInput
  ) {
    fulfillmentOrderReportProgress(id: $id, progressReport: $progressReport) {
      fulfillmentOrder {
        id
        status
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;
