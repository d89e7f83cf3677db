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

/** Fulfilling orders and following their shipments: what the status sync writes. */
export interface Fulfillments {
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
}
