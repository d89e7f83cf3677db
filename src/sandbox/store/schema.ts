import { buildSchema } from 'graphql';
import { COUNTRY_CODES, HOLD_REASONS } from './model.js';
import { WEBHOOK_TOPICS } from './webhook-topics.js';

/**
 * The slice of Shopify's Admin GraphQL schema (2026-10) the fake store serves: every type, field,
 * argument and enum value here exists in the real schema with the same type, which
 * test/store/graphql-schema.test.ts checks against the real introspection. Executing against it
 * gives real response shapes for whatever selection a document makes, and rejects fields the real
 * API would not have.
 */
export const FAKE_ADMIN_SDL = /* GraphQL */ `
  schema {
    query: QueryRoot
    mutation: Mutation
  }

  scalar DateTime
  scalar URL

  interface Node {
    id: ID!
  }

  type QueryRoot {
    shop: Shop!
    order(id: ID!): Order
    fulfillmentOrder(id: ID!): FulfillmentOrder
    fulfillment(id: ID!): Fulfillment
    nodes(ids: [ID!]!): [Node]!
    orders(
      first: Int
      after: String
      last: Int
      before: String
      query: String
      sortKey: OrderSortKeys
      reverse: Boolean
    ): OrderConnection!
    currentAppInstallation: AppInstallation!
    locations(first: Int, after: String, includeInactive: Boolean): LocationConnection!
    webhookSubscriptions(
      first: Int
      after: String
      topics: [WebhookSubscriptionTopic!]
      uri: String
      format: WebhookSubscriptionFormat
    ): WebhookSubscriptionConnection!
    metafieldDefinitions(
      ownerType: MetafieldOwnerType!
      namespace: String
      key: String
      first: Int
      after: String
    ): MetafieldDefinitionConnection!
  }

  type Mutation {
    metafieldsSet(metafields: [MetafieldsSetInput!]!): MetafieldsSetPayload
    metafieldsDelete(metafields: [MetafieldIdentifierInput!]!): MetafieldsDeletePayload
    tagsAdd(id: ID!, tags: [String!]!): TagsAddPayload
    tagsRemove(id: ID!, tags: [String!]!): TagsRemovePayload
    orderUpdate(input: OrderInput!): OrderUpdatePayload
    fulfillmentCreate(fulfillment: FulfillmentInput!, message: String): FulfillmentCreatePayload
    fulfillmentTrackingInfoUpdate(
      fulfillmentId: ID!
      trackingInfoInput: FulfillmentTrackingInput!
      notifyCustomer: Boolean
    ): FulfillmentTrackingInfoUpdatePayload
    fulfillmentEventCreate(fulfillmentEvent: FulfillmentEventInput!): FulfillmentEventCreatePayload
    fulfillmentOrderReportProgress(
      id: ID!
      progressReport: FulfillmentOrderReportProgressInput
    ): FulfillmentOrderReportProgressPayload
    webhookSubscriptionCreate(
      topic: WebhookSubscriptionTopic!
      webhookSubscription: WebhookSubscriptionInput!
    ): WebhookSubscriptionCreatePayload
    webhookSubscriptionUpdate(
      id: ID!
      webhookSubscription: WebhookSubscriptionInput!
    ): WebhookSubscriptionUpdatePayload
    metafieldDefinitionCreate(definition: MetafieldDefinitionInput!): MetafieldDefinitionCreatePayload
  }

  enum OrderSortKeys {
    CREATED_AT
    ID
    UPDATED_AT
  }

  enum OrderDisplayFinancialStatus {
    AUTHORIZED
    EXPIRED
    PAID
    PARTIALLY_PAID
    PARTIALLY_REFUNDED
    PENDING
    REFUNDED
    VOIDED
  }

  enum OrderDisplayFulfillmentStatus {
    FULFILLED
    IN_PROGRESS
    ON_HOLD
    OPEN
    PARTIALLY_FULFILLED
    PENDING_FULFILLMENT
    REQUEST_DECLINED
    RESTOCKED
    SCHEDULED
    UNFULFILLED
  }

  enum WeightUnit {
    GRAMS
    KILOGRAMS
    OUNCES
    POUNDS
  }

  enum CountryCode {
    ${COUNTRY_CODES.join(' ')}
  }

  enum FulfillmentOrderStatus {
    CANCELLED
    CLOSED
    INCOMPLETE
    IN_PROGRESS
    ON_HOLD
    OPEN
    SCHEDULED
  }

  enum DeliveryMethodType {
    LOCAL
    NONE
    PICKUP_POINT
    PICK_UP
    RETAIL
    SHIPPING
  }

  enum FulfillmentOrderRequestStatus {
    ACCEPTED
    CANCELLATION_ACCEPTED
    CANCELLATION_REJECTED
    CANCELLATION_REQUESTED
    CLOSED
    REJECTED
    SUBMITTED
    UNSUBMITTED
  }

  enum FulfillmentOrderAction {
    CANCEL_FULFILLMENT_ORDER
    CREATE_FULFILLMENT
    EXTERNAL
    HOLD
    MARK_AS_OPEN
    MERGE
    MOVE
    RELEASE_HOLD
    REPORT_PROGRESS
    REQUEST_CANCELLATION
    REQUEST_FULFILLMENT
    SPLIT
  }

  enum FulfillmentHoldReason {
    ${HOLD_REASONS.join(' ')}
  }

  enum FulfillmentDisplayStatus {
    ATTEMPTED_DELIVERY
    CANCELED
    CARRIER_PICKED_UP
    CONFIRMED
    DELAYED
    DELIVERED
    FAILURE
    FULFILLED
    IN_TRANSIT
    LABEL_PRINTED
    LABEL_PURCHASED
    LABEL_VOIDED
    MARKED_AS_FULFILLED
    NOT_DELIVERED
    OUT_FOR_DELIVERY
    PICKED_UP
    READY_FOR_PICKUP
    SUBMITTED
  }

  enum FulfillmentOrderReportProgressUserErrorCode {
    FULFILLMENT_ORDER_INVALID_FULFILLMENT_SERVICE_OWNERSHIP
    FULFILLMENT_ORDER_NOT_FOUND
    FULFILLMENT_ORDER_STATUS_INVALID
    FULFILLMENT_ORDER_UNSUPPORTED_ACTION
  }

  enum WebhookSubscriptionTopic {
    ${WEBHOOK_TOPICS.join(' ')}
  }

  enum WebhookSubscriptionFormat {
    JSON
    XML
  }

  enum MetafieldOwnerType {
    CUSTOMER
    LOCATION
    ORDER
    PRODUCT
    PRODUCTVARIANT
    SHOP
  }

  enum MetafieldDefinitionCreateUserErrorCode {
    BLANK
    INCLUSION
    INVALID
    TAKEN
  }

  enum FulfillmentStatus {
    CANCELLED
    ERROR
    FAILURE
    SUCCESS
  }

  enum FulfillmentEventStatus {
    ATTEMPTED_DELIVERY
    CARRIER_PICKED_UP
    CONFIRMED
    DELAYED
    DELIVERED
    FAILURE
    IN_TRANSIT
    LABEL_PRINTED
    LABEL_PURCHASED
    OUT_FOR_DELIVERY
    READY_FOR_PICKUP
  }

  enum MetafieldsSetUserErrorCode {
    BLANK
    INVALID
    INVALID_TYPE
    INVALID_VALUE
    LESS_THAN_OR_EQUAL_TO
  }

  enum CountPrecision {
    AT_LEAST
    EXACT
  }

  type Count {
    count: Int!
    precision: CountPrecision!
  }

  type PageInfo {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }

  type Order implements Node {
    id: ID!
    name: String!
    createdAt: DateTime!
    updatedAt: DateTime!
    test: Boolean!
    cancelledAt: DateTime
    displayFinancialStatus: OrderDisplayFinancialStatus
    displayFulfillmentStatus: OrderDisplayFulfillmentStatus!
    tags: [String!]!
    requiresShipping: Boolean!
    email: String
    phone: String
    note: String
    shippingAddress: MailingAddress
    lineItems(first: Int, after: String): LineItemConnection!
    fulfillmentOrders(first: Int, after: String): FulfillmentOrderConnection!
    fulfillments(first: Int, query: String): [Fulfillment!]!
    fulfillmentsCount: Count
    metafield(namespace: String, key: String!): Metafield
    metafields(first: Int, after: String, namespace: String): MetafieldConnection!
  }

  type OrderConnection {
    nodes: [Order!]!
    edges: [OrderEdge!]!
    pageInfo: PageInfo!
  }

  type OrderEdge {
    cursor: String!
    node: Order!
  }

  type MailingAddress {
    name: String
    company: String
    phone: String
    address1: String
    address2: String
    city: String
    zip: String
    countryCodeV2: CountryCode
  }

  type LineItem implements Node {
    id: ID!
    title: String!
    quantity: Int!
    currentQuantity: Int!
    unfulfilledQuantity: Int!
    requiresShipping: Boolean!
    product: Product
    variant: ProductVariant
  }

  type LineItemConnection {
    nodes: [LineItem!]!
    pageInfo: PageInfo!
  }

  type Product implements Node {
    id: ID!
    productType: String!
  }

  type ProductVariant implements Node {
    id: ID!
    product: Product!
    inventoryItem: InventoryItem!
  }

  type InventoryItem implements Node {
    id: ID!
    measurement: InventoryItemMeasurement!
  }

  type InventoryItemMeasurement implements Node {
    id: ID!
    weight: Weight
  }

  type Weight {
    unit: WeightUnit!
    value: Float!
  }

  type Metafield implements Node {
    id: ID!
    namespace: String!
    key: String!
    type: String!
    value: String!
  }

  type MetafieldConnection {
    nodes: [Metafield!]!
    pageInfo: PageInfo!
  }

  type FulfillmentOrder implements Node {
    id: ID!
    status: FulfillmentOrderStatus!
    requestStatus: FulfillmentOrderRequestStatus!
    fulfillAt: DateTime
    updatedAt: DateTime!
    assignedLocation: FulfillmentOrderAssignedLocation!
    deliveryMethod: DeliveryMethod
    supportedActions: [FulfillmentOrderSupportedAction!]!
    fulfillmentHolds: [FulfillmentHold!]!
    lineItems(first: Int, after: String): FulfillmentOrderLineItemConnection!
  }

  type FulfillmentOrderAssignedLocation {
    name: String!
    location: Location
  }

  type Location implements Node {
    id: ID!
    name: String!
    isFulfillmentService: Boolean!
    isActive: Boolean!
    fulfillmentService: FulfillmentService
  }

  type LocationConnection {
    nodes: [Location!]!
    pageInfo: PageInfo!
  }

  type FulfillmentService {
    id: ID!
    serviceName: String!
    handle: String!
  }

  type DeliveryMethod implements Node {
    id: ID!
    methodType: DeliveryMethodType!
  }

  type FulfillmentOrderSupportedAction {
    action: FulfillmentOrderAction!
  }

  type FulfillmentHold implements Node {
    id: ID!
    reason: FulfillmentHoldReason!
    reasonNotes: String
    displayReason: String!
    heldByRequestingApp: Boolean!
  }

  type FulfillmentOrderConnection {
    nodes: [FulfillmentOrder!]!
    pageInfo: PageInfo!
  }

  type FulfillmentOrderLineItem implements Node {
    id: ID!
    totalQuantity: Int!
    remainingQuantity: Int!
    lineItem: LineItem!
  }

  type FulfillmentOrderLineItemConnection {
    nodes: [FulfillmentOrderLineItem!]!
    pageInfo: PageInfo!
  }

  type Fulfillment implements Node {
    id: ID!
    status: FulfillmentStatus!
    displayStatus: FulfillmentDisplayStatus
    createdAt: DateTime!
    updatedAt: DateTime!
    deliveredAt: DateTime
    inTransitAt: DateTime
    totalQuantity: Int!
    location: Location
    trackingInfo(first: Int): [FulfillmentTrackingInfo!]!
    fulfillmentLineItems(first: Int, after: String): FulfillmentLineItemConnection!
    events(first: Int, after: String): FulfillmentEventConnection!
    fulfillmentOrders(first: Int, after: String): FulfillmentOrderConnection!
  }

  type FulfillmentLineItem implements Node {
    id: ID!
    quantity: Int
    lineItem: LineItem!
  }

  type FulfillmentLineItemConnection {
    nodes: [FulfillmentLineItem!]!
    pageInfo: PageInfo!
  }

  type FulfillmentEventConnection {
    nodes: [FulfillmentEvent!]!
    edges: [FulfillmentEventEdge!]!
    pageInfo: PageInfo!
  }

  type FulfillmentEventEdge {
    cursor: String!
    node: FulfillmentEvent!
  }

  type FulfillmentTrackingInfo {
    company: String
    number: String
    url: URL
  }

  type FulfillmentEvent implements Node {
    id: ID!
    status: FulfillmentEventStatus!
    happenedAt: DateTime!
    createdAt: DateTime!
    message: String
  }

  type AppInstallation implements Node {
    id: ID!
    accessScopes: [AccessScope!]!
  }

  type AccessScope {
    handle: String!
    description: String!
  }

  type Shop implements Node {
    id: ID!
    name: String!
    myshopifyDomain: String!
  }

  type WebhookSubscription implements Node {
    id: ID!
    topic: WebhookSubscriptionTopic!
    uri: String!
    format: WebhookSubscriptionFormat!
    createdAt: DateTime!
    updatedAt: DateTime!
  }

  type WebhookSubscriptionConnection {
    nodes: [WebhookSubscription!]!
    edges: [WebhookSubscriptionEdge!]!
    pageInfo: PageInfo!
  }

  type WebhookSubscriptionEdge {
    cursor: String!
    node: WebhookSubscription!
  }

  type MetafieldDefinitionType {
    name: String!
    category: String!
  }

  type MetafieldDefinition implements Node {
    id: ID!
    name: String!
    namespace: String!
    key: String!
    description: String
    type: MetafieldDefinitionType!
    ownerType: MetafieldOwnerType!
  }

  type MetafieldDefinitionConnection {
    nodes: [MetafieldDefinition!]!
    edges: [MetafieldDefinitionEdge!]!
    pageInfo: PageInfo!
  }

  type MetafieldDefinitionEdge {
    cursor: String!
    node: MetafieldDefinition!
  }

  type UserError {
    field: [String!]
    message: String!
  }

  type MetafieldsSetUserError {
    field: [String!]
    message: String!
    code: MetafieldsSetUserErrorCode
    elementIndex: Int
  }

  input MetafieldsSetInput {
    ownerId: ID!
    namespace: String
    key: String!
    value: String!
    type: String
  }

  type MetafieldsSetPayload {
    metafields: [Metafield!]
    userErrors: [MetafieldsSetUserError!]!
  }

  input MetafieldIdentifierInput {
    ownerId: ID!
    namespace: String!
    key: String!
  }

  type MetafieldIdentifier {
    ownerId: ID!
    namespace: String!
    key: String!
  }

  type MetafieldsDeletePayload {
    deletedMetafields: [MetafieldIdentifier]
    userErrors: [UserError!]!
  }

  type TagsAddPayload {
    node: Node
    userErrors: [UserError!]!
  }

  type TagsRemovePayload {
    node: Node
    userErrors: [UserError!]!
  }

  input OrderInput {
    id: ID!
    note: String
    tags: [String!]
    metafields: [MetafieldInput!]
  }

  input MetafieldInput {
    id: ID
    namespace: String
    key: String
    type: String
    value: String
  }

  type OrderUpdatePayload {
    order: Order
    userErrors: [UserError!]!
  }

  input FulfillmentTrackingInput {
    company: String
    number: String
    url: URL
  }

  input FulfillmentOrderLineItemInput {
    id: ID!
    quantity: Int!
  }

  input FulfillmentOrderLineItemsInput {
    fulfillmentOrderId: ID!
    fulfillmentOrderLineItems: [FulfillmentOrderLineItemInput!]
  }

  input FulfillmentInput {
    lineItemsByFulfillmentOrder: [FulfillmentOrderLineItemsInput!]!
    notifyCustomer: Boolean
    trackingInfo: FulfillmentTrackingInput
  }

  type FulfillmentCreatePayload {
    fulfillment: Fulfillment
    userErrors: [UserError!]!
  }

  type FulfillmentTrackingInfoUpdatePayload {
    fulfillment: Fulfillment
    userErrors: [UserError!]!
  }

  input FulfillmentEventInput {
    fulfillmentId: ID!
    status: FulfillmentEventStatus!
    happenedAt: DateTime
    message: String
  }

  type FulfillmentEventCreatePayload {
    fulfillmentEvent: FulfillmentEvent
    userErrors: [UserError!]!
  }

  input FulfillmentOrderReportProgressInput {
    reasonNotes: String
  }

  type FulfillmentOrderReportProgressUserError {
    field: [String!]
    message: String!
    code: FulfillmentOrderReportProgressUserErrorCode
  }

  type FulfillmentOrderReportProgressPayload {
    fulfillmentOrder: FulfillmentOrder
    userErrors: [FulfillmentOrderReportProgressUserError!]!
  }

  input WebhookSubscriptionInput {
    uri: String
    callbackUrl: URL
    format: WebhookSubscriptionFormat
  }

  type WebhookSubscriptionCreatePayload {
    webhookSubscription: WebhookSubscription
    userErrors: [UserError!]!
  }

  type WebhookSubscriptionUpdatePayload {
    webhookSubscription: WebhookSubscription
    userErrors: [UserError!]!
  }

  input MetafieldDefinitionInput {
    name: String!
    namespace: String
    key: String!
    type: String!
    ownerType: MetafieldOwnerType!
    description: String
    pin: Boolean
  }

  type MetafieldDefinitionCreateUserError {
    field: [String!]
    message: String!
    code: MetafieldDefinitionCreateUserErrorCode
    elementIndex: Int
  }

  type MetafieldDefinitionCreatePayload {
    createdDefinition: MetafieldDefinition
    userErrors: [MetafieldDefinitionCreateUserError!]!
  }
`;

export const fakeAdminSchema = buildSchema(FAKE_ADMIN_SDL);
