import * as fulfillmentDocuments from './fulfillments/documents.js';
import * as fulfillmentState from './fulfillments/state-documents.js';
import * as orderMarks from './order-marks/documents.js';
import * as orders from './orders/documents.js';
import * as setup from './setup/documents.js';

/**
 * Every Admin GraphQL document the connector sends (API 2026-10), by capability.
 * test/store/graphql-schema.test.ts validates them all against the real schema,
 * test/store/query-cost.test.ts holds each under Shopify's limit of 1,000 points of requested
 * cost per query, and the local fake store answers exactly these.
 *
 * Requested cost is counted before Shopify runs a query, from what it asks for: 1 per object,
 * 0 per scalar or enum, and a connection 2 + `first` × the cost of one node, nested
 * multiplicatively.
 */
export const STORE_DOCUMENTS = {
  orders,
  orderMarks,
  fulfillments: { ...fulfillmentDocuments, ...fulfillmentState },
  setup,
} as const;
