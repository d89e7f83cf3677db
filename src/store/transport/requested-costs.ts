/**
 * Shopify's `requestedQueryCost` of each document, by operation name: what a request takes from
 * the shared bucket before it is sent. test/store/query-cost.test.ts checks each against the
 * schema; the table must list every document and nothing else. Keep each well below 1,000.
 */
export const REQUESTED_COSTS: Readonly<Record<string, number>> = {
  ListOrdersUpdatedSince: 202,
  GetOrder: 264,
  GetOrderLineItems: 147,
  GetOrderFulfillmentOrders: 563,
  FindOrderByName: 3,
  // nodes(ids:) of up to 100: the list counts once here; Shopify charges about 1 per id
  FindOrders: 1,
  GetFulfillmentOrders: 518,
  GetFulfillmentOrderLineItems: 503,
  GetOrderNote: 1,
  // Mutations: 10 plus the payload selected.
  SetOrderMetafields: 11,
  DeleteOrderMetafields: 12,
  AddOrderTags: 12,
  RemoveOrderTags: 12,
  UpdateOrderNote: 12,
  // All four parts; the client sends only those that change.
  WriteOrderMarks: 44,
  GetOrderMarks: 3,
  CreateFulfillment: 44,
  CreateFulfillmentWithStatus: 55,
  UpdateFulfillmentTracking: 22,
  CreateFulfillmentEvent: 12,
  CreateFulfillmentEventWithStatus: 23,
  ReadFulfillmentState: 279,
  ReadOrderFulfillmentOrders: 173,
  ReadOrderFulfillments: 476,
  ReadFulfillmentOrderRemainingLines: 103,
  ReadFulfillmentLineItems: 203,
  // nodes(ids:): the list counts once here; Shopify charges about this per id
  ReadFulfillmentOrdersById: 4,
  ReportFulfillmentOrderProgress: 12,
  ReportFulfillmentOrderProgressWithStatus: 23,
  GetGrantedScopes: 2,
  GetShopIdentity: 1,
  ListLocations: 52,
  ListWebhookSubscriptions: 52,
  CreateWebhookSubscription: 12,
  UpdateWebhookSubscription: 12,
  ListOrderMetafieldDefinitions: 102,
  CreateMetafieldDefinition: 12,
};

/** A document not in the table takes a tenth of a standard bucket, corrected by Shopify's answer. */
export function requestedCostOf(document: string): number {
  const name = /\b(?:query|mutation)\s+([_A-Za-z][_0-9A-Za-z]*)/.exec(document)?.[1];
  return (name && REQUESTED_COSTS[name]) || 100;
}
