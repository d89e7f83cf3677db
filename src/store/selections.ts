/** Selections most documents repeat, spelled once; each stands where the field would. */

export const PAGE_INFO = /* GraphQL */ `pageInfo {
  hasNextPage
  endCursor
}`;

export const USER_ERRORS = /* GraphQL */ `userErrors {
  field
  message
}`;
