/**
 * The documents that read fulfillment orders and fulfil, track and follow shipments (API
 * 2026-10). Every export is one complete document, listed in ../documents.ts for the schema and
 * cost tests.
 */

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

/**
 * The fulfillment made, with the units it holds (one line per order line item; the client checks
 * them against what it asked for). A location's fulfillment of more than 10 line items is not
 * listed whole: the client then reads the order.
 */
const CREATED_FULFILLMENT_FIELDS = /* GraphQL */ `
  fragment CreatedFulfillmentFields on Fulfillment {
    id
    status
    trackingInfo(first: 10) {
      company
      number
      url
    }
    fulfillmentLineItems(first: 10) {
      nodes {
        quantity
        lineItem {
          id
        }
      }
      pageInfo {
        hasNextPage
      }
    }
  }
`;

/**
 * The order's status metafields, written in the same request as a mutation that changes it,
 * through the order itself (a flat 10 points).
 */
const STATUS_WRITE = /* GraphQL */ `
    orderUpdate(input: $order) {
      userErrors {
        field
        message
      }
    }`;

/**
 * A mutation alone, and with the order's status metafields (`…WithStatus`): Shopify runs the two
 * one after the other, each answering its own userErrors.
 */
function withAndWithoutStatus(name: string, variables: string, body: string, fragments = '') {
  return [
    `mutation ${name}(${variables}) {${body}}\n${fragments}`,
    `mutation ${name}WithStatus(${variables}, $order: OrderInput!) {${body}${STATUS_WRITE}\n}\n${fragments}`,
  ] as const;
}

export const [CREATE_FULFILLMENT, CREATE_FULFILLMENT_WITH_STATUS] = withAndWithoutStatus(
  'CreateFulfillment',
  '$fulfillment: FulfillmentInput!',
  /* GraphQL */ `
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment {
        ...CreatedFulfillmentFields
      }
      userErrors {
        field
        message
      }
    }
  `,
  CREATED_FULFILLMENT_FIELDS,
);

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

export const [CREATE_FULFILLMENT_EVENT, CREATE_FULFILLMENT_EVENT_WITH_STATUS] =
  withAndWithoutStatus(
    'CreateFulfillmentEvent',
    '$fulfillmentEvent: FulfillmentEventInput!',
    /* GraphQL */ `
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
  `,
  );

/** A progress report and the order's status metafields in one request. */
export const REPORT_FULFILLMENT_ORDER_PROGRESS_WITH_STATUS = /* GraphQL */ `
  mutation ReportFulfillmentOrderProgressWithStatus(
    $id: ID!
    $progressReport: FulfillmentOrderReportProgressInput
    $order: OrderInput!
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
${STATUS_WRITE}
  }
`;
