/**
 * The requested cost of each document the connector sends (Shopify's `requestedQueryCost`), by
 * the document's operation name: what a request takes from the shared bucket before it is sent.
 * Kept equal to what the documents cost against the real schema by test/store/query-cost.test.ts.
 */
export const REQUESTED_COSTS: Readonly<Record<string, number>> = {
  ListOrdersUpdatedSince: 202,
  GetOrder: 150,
  GetOrderLineItems: 147,
  FindOrderByName: 3,
  FindOrders: 1,
  GetFulfillmentOrders: 518,
  GetFulfillmentOrderLineItems: 503,
  GetOrderNote: 1,
  SetOrderMetafields: 12,
  DeleteOrderMetafields: 12,
  AddOrderTags: 12,
  RemoveOrderTags: 12,
  UpdateOrderNote: 12,
  WriteOrderMarks: 44,
  GetOrderMarks: 3,
  CreateFulfillment: 22,
  UpdateFulfillmentTracking: 22,
  CreateFulfillmentEvent: 12,
  ReadFulfillmentState: 159,
  ReadOrderFulfillmentOrders: 173,
  ReadOrderFulfillments: 176,
  ReadFulfillmentOrderRemainingLines: 103,
  ReportFulfillmentOrderProgress: 12,
  GetGrantedScopes: 2,
  GetShopIdentity: 1,
  ListWebhookSubscriptions: 52,
  CreateWebhookSubscription: 12,
  UpdateWebhookSubscription: 12,
  ListOrderMetafieldDefinitions: 102,
  CreateMetafieldDefinition: 12,
};

/** For a document not in the table: a tenth of a standard bucket, corrected by Shopify's answer. */
export const UNKNOWN_DOCUMENT_COST = 100;

const OPERATION_NAME = /\b(?:query|mutation)\s+([_A-Za-z][_0-9A-Za-z]*)/;
const byDocument = new Map<string, number>();

/** The requested cost of a document, looked up once per document by its operation name. */
export function requestedCostOf(document: string): number {
  let cost = byDocument.get(document);
  if (cost === undefined) {
    const name = OPERATION_NAME.exec(document)?.[1];
    cost = (name && REQUESTED_COSTS[name]) || UNKNOWN_DOCUMENT_COST;
    byDocument.set(document, cost);
  }
  return cost;
}
