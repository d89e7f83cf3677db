import type { StoreOrder, StoreOrderSummary } from '../domain/order.js';
import type { WebhookHeaders, WebhookVerification } from './webhooks.js';

export type MetafieldType = 'single_line_text_field' | 'multi_line_text_field';

export interface MetafieldEntry {
  namespace: string;
  key: string;
  value: string;
  type: MetafieldType;
}

/** Names a metafield on an owner (the order): what metafieldsDelete takes besides the owner. */
export interface MetafieldKey {
  namespace: string;
  key: string;
}

export interface FulfillmentOrderLine {
  /** FulfillmentOrderLineItem gid: what fulfillmentCreate takes. */
  id: string;
  /** The order's LineItem gid. */
  lineItemId: string;
  totalQuantity: number;
  remainingQuantity: number;
}

export interface OpenFulfillmentOrder {
  id: string;
  /** OPEN or IN_PROGRESS (partly fulfilled). */
  status: string;
  lineItems: FulfillmentOrderLine[];
}

export interface Tracking {
  company: string;
  number: string;
  url?: string;
}

export interface CreateFulfillmentInput {
  /** Numeric id or gid; used to find the open fulfillment orders when none are named. */
  orderId: string;
  /** Fulfil these fulfillment orders whole. */
  fulfillmentOrderIds?: string[];
  /** Or fulfil just these lines. Without either, every open fulfillment order is fulfilled. */
  lineItems?: {
    fulfillmentOrderId: string;
    fulfillmentOrderLineItemId: string;
    quantity: number;
  }[];
  tracking: Tracking;
  notifyCustomer: boolean;
}

export interface FulfillmentSummary {
  id: string;
  status: string;
  tracking: { company: string | null; number: string | null; url: string | null }[];
}

export type FulfillmentEventStatus =
  | 'ATTEMPTED_DELIVERY'
  | 'CARRIER_PICKED_UP'
  | 'CONFIRMED'
  | 'DELAYED'
  | 'DELIVERED'
  | 'FAILURE'
  | 'IN_TRANSIT'
  | 'LABEL_PRINTED'
  | 'LABEL_PURCHASED'
  | 'OUT_FOR_DELIVERY'
  | 'READY_FOR_PICKUP';

/** The store side as the rest of the connector sees it (the port jobs depend on). */
export interface StoreClient {
  /** The order, or null when the store has none with that id (numeric or gid). */
  getOrder(id: string): Promise<StoreOrder | null>;
  /**
   * One page (100) of orders updated at or after `since`, oldest update first: summaries without
   * line items or address, so the page stays cheap; read an order whole with getOrder.
   */
  listOrdersUpdatedSince(
    since: Date,
    after?: string,
  ): Promise<{ orders: StoreOrderSummary[]; nextCursor: string | null }>;
  setOrderMetafields(orderId: string, entries: MetafieldEntry[]): Promise<void>;
  /** Deletes these metafields from the order; one the order does not have is skipped silently. */
  deleteOrderMetafields(orderId: string, keys: MetafieldKey[]): Promise<void>;
  addOrderTags(orderId: string, tags: string[]): Promise<void>;
  removeOrderTags(orderId: string, tags: string[]): Promise<void>;
  /** Adds `text` as a new last line of the order note, unless that exact line is already there. */
  appendOrderNote(orderId: string, text: string): Promise<void>;
  /** The open fulfillment orders with their unfulfilled lines, every page of them. */
  getFulfillmentOrders(orderId: string): Promise<OpenFulfillmentOrder[]>;
  createFulfillment(input: CreateFulfillmentInput): Promise<FulfillmentSummary>;
  updateFulfillmentTracking(
    fulfillmentId: string,
    tracking: Tracking,
    options?: { notifyCustomer?: boolean },
  ): Promise<FulfillmentSummary>;
  createFulfillmentEvent(
    fulfillmentId: string,
    status: FulfillmentEventStatus,
    options?: { happenedAt?: string; message?: string },
  ): Promise<{ id: string; status: string; happenedAt: string }>;
  verifyWebhook(rawBody: string, headers: WebhookHeaders): Promise<WebhookVerification>;
}
