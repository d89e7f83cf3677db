/** Each export is a complete document, listed in ../documents.ts for the schema and cost tests. */

import { FULFILLMENT_LINE, FULFILLMENT_ORDER_LINE, PAGE_INFO, USER_ERRORS } from '../selections.js';

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
              ${FULFILLMENT_ORDER_LINE}
            }
            ${PAGE_INFO}
          }
        }
        ${PAGE_INFO}
      }
    }
  }
`;

export const GET_FULFILLMENT_ORDER_LINE_ITEMS = /* GraphQL */ `
  query GetFulfillmentOrderLineItems($id: ID!, $after: String) {
    fulfillmentOrder(id: $id) {
      id
      lineItems(first: 250, after: $after) {
        nodes {
          ${FULFILLMENT_ORDER_LINE}
        }
        ${PAGE_INFO}
      }
    }
  }
`;

/** A fulfillment as FulfillmentSummary shows it. */
const FULFILLMENT = /* GraphQL */ `id
status
trackingInfo(first: 10) {
  company
  number
  url
}`;

/**
 * The client checks the units against what it asked for; past 10 line items they are not listed
 * whole, and the client reads the order instead.
 */
const CREATED_FULFILLMENT_FIELDS = /* GraphQL */ `
  fragment CreatedFulfillmentFields on Fulfillment {
    ${FULFILLMENT}
    fulfillmentLineItems(first: 10) {
      nodes {
        ${FULFILLMENT_LINE}
      }
      pageInfo {
        hasNextPage
      }
    }
  }
`;

/** The order's status metafields, through orderUpdate. */
const STATUS_WRITE = /* GraphQL */ `
    orderUpdate(input: $order) {
      ${USER_ERRORS}
    }`;

/** In `…WithStatus`, Shopify runs the two mutations in turn, each with its own userErrors. */
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
      ${USER_ERRORS}
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
        ${FULFILLMENT}
      }
      ${USER_ERRORS}
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
      ${USER_ERRORS}
    }
  `,
  );

/** Merchant-managed fulfillment orders only (OPEN or IN_PROGRESS). */
export const [REPORT_FULFILLMENT_ORDER_PROGRESS, REPORT_FULFILLMENT_ORDER_PROGRESS_WITH_STATUS] =
  withAndWithoutStatus(
    'ReportFulfillmentOrderProgress',
    '$id: ID!, $progressReport: FulfillmentOrderReportProgressInput',
    /* GraphQL */ `
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
  `,
  );
