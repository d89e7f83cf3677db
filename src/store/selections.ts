/** Selections most documents repeat, spelled once; each stands where the field would. */

export const PAGE_INFO = /* GraphQL */ `pageInfo {
  hasNextPage
  endCursor
}`;

export const USER_ERRORS = /* GraphQL */ `userErrors {
  field
  message
}`;

/** Where a fulfillment order is and what it allows, as fulfillmentOrderHead reads it. */
export const FULFILLMENT_ORDER_PLACE = /* GraphQL */ `supportedActions {
  action
}
assignedLocation {
  name
  location {
    id
    isFulfillmentService
  }
}`;

/** A fulfillment order line's fields, as the order reader and open fulfillment orders take it. */
export const FULFILLMENT_ORDER_LINE = /* GraphQL */ `id
totalQuantity
remainingQuantity
lineItem {
  id
}`;

/** A fulfillment line: the order's line it covers and how much of it. */
export const FULFILLMENT_LINE = /* GraphQL */ `quantity
lineItem {
  id
}`;
