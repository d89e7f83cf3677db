import * as fulfillmentDocuments from './fulfillments/documents.js';
import * as fulfillmentState from './fulfillments/state-documents.js';
import * as orderMarks from './order-marks/documents.js';
import * as orders from './orders/documents.js';
import * as setup from './setup/documents.js';

/**
 * Every Admin GraphQL document the connector sends. test/store/graphql-schema.test.ts validates
 * them against the schema, test/store/query-cost.test.ts holds each under Shopify's 1,000-point
 * limit, and the local fake store answers exactly these. Requested cost, counted before a query
 * runs: 1 per object, 0 per scalar, a connection 2 + `first` × one node, nested multiplicatively.
 */
export const STORE_DOCUMENTS = {
  orders,
  orderMarks,
  fulfillments: { ...fulfillmentDocuments, ...fulfillmentState },
  setup,
} as const;
