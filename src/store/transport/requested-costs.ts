/**
 * The requested cost of each document the connector sends (Shopify's `requestedQueryCost`), by
 * the document's operation name: what a request takes from the shared bucket before it is sent.
 * test/store/query-cost.test.ts counts each document against the real schema by Shopify's rules
 * (objects 1, a connection 2 + first × its node, mutations 10, metafieldsSet 10 more per order,
 * which no document sends: order metafields go through orderUpdate)
 * and checks it against this table, which must list every document and nothing else. A change
 * here is a change to what each call takes from the store's bucket: keep it well below the 1,000
 * limit, and look at the pages it implies.
 */
export const REQUESTED_COSTS: Readonly<Record<string, number>> = {
  // 100 orders × (the order and its order-number metafield) + 2
  ListOrdersUpdatedSince: 202,
  // the order, its two mark metafields, its address, the first 24 line items × 6 objects + 2,
  // and the first 2 fulfillment orders × (5 objects + 24 lines × 2 + 2) + 2
  GetOrder: 264,
  // the order, the next 24 line items × 6 objects + 2 (only for an order with more than 24)
  GetOrderLineItems: 147,
  // the order, the next 10 fulfillment orders × 56 + 2 (only for an order with more than 2)
  GetOrderFulfillmentOrders: 563,
  // one order × (the order) + 2
  FindOrderByName: 3,
  // nodes(ids:) of up to 100 orders: the list counts once here; Shopify charges about 1 per id
  FindOrders: 1,
  // 5 fulfillment orders × (1 + 50 lines × 2 + 2) + 2 + the order
  GetFulfillmentOrders: 518,
  // 250 lines × 2 + 2 + the fulfillment order
  GetFulfillmentOrderLineItems: 503,
  GetOrderNote: 1,
  // mutations: 10 each, plus the payload selected (order metafields through orderUpdate)
  SetOrderMetafields: 11,
  DeleteOrderMetafields: 12,
  AddOrderTags: 12,
  RemoveOrderTags: 12,
  UpdateOrderNote: 12,
  // all four parts; the client sends only those that change (11 to 44)
  WriteOrderMarks: 44,
  // the order and two metafields
  GetOrderMarks: 3,
  // and the fulfillment's first 10 line items × 2 + 2
  CreateFulfillment: 44,
  CreateFulfillmentWithStatus: 55,
  UpdateFulfillmentTracking: 22,
  CreateFulfillmentEvent: 12,
  // two mutations: the event, and the order's status metafields
  CreateFulfillmentEventWithStatus: 23,
  // 1 (order) + 2 + 5 fulfillment orders × 17 + 1 (count) + 10 fulfillments × 19
  ReadFulfillmentState: 279,
  // 1 + 2 + 10 fulfillment orders × 17
  ReadOrderFulfillmentOrders: 173,
  // 1 + 25 fulfillments × 19
  ReadOrderFulfillments: 476,
  // 1 + 2 + 100 lines × 1
  ReadFulfillmentOrderRemainingLines: 103,
  // 1 + 2 + 100 lines × 2 (only for a fulfillment of more than 5 lines)
  ReadFulfillmentLineItems: 203,
  // nodes(ids:) of a shipment's fulfillment orders × (itself, supportedActions, assignedLocation
  // and its location): the list counts once here; Shopify charges about that per id
  ReadFulfillmentOrdersById: 4,
  ReportFulfillmentOrderProgress: 12,
  ReportFulfillmentOrderProgressWithStatus: 23,
  GetGrantedScopes: 2,
  GetShopIdentity: 1,
  // 50 locations + 2
  ListLocations: 52,
  // 2 + 50 subscriptions
  ListWebhookSubscriptions: 52,
  CreateWebhookSubscription: 12,
  UpdateWebhookSubscription: 12,
  // 2 + 50 definitions × (1 + its type)
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
