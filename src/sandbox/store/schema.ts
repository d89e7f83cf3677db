import { buildSchema } from 'graphql';
import { COUNTRY_CODES } from './model.js';

/**
 * The slice of Shopify's Admin GraphQL schema (2026-07) the fake store serves: every type, field,
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

  type Shop {
    name: String!
  }

  interface Node {
    id: ID!
  }

  type QueryRoot {
    shop: Shop!
    order(id: ID!): Order
    fulfillmentOrder(id: ID!): FulfillmentOrder
    orders(
      first: Int
      after: String
      last: Int
      before: String
      query: String
      sortKey: OrderSortKeys
      reverse: Boolean
    ): OrderConnection!
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
    fulfillments(first: Int): [Fulfillment!]!
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
    lineItems(first: Int, after: String): FulfillmentOrderLineItemConnection!
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
    createdAt: DateTime!
    trackingInfo(first: Int): [FulfillmentTrackingInfo!]!
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
`;

export const fakeAdminSchema = buildSchema(FAKE_ADMIN_SDL);
