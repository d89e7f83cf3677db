import type { StoreFulfillmentOrder } from '../../domain/order.js';
import type { MetafieldEntry } from '../order-marks/types.js';

/** Status OPEN or IN_PROGRESS (partly fulfilled). */
export type OpenFulfillmentOrder = Pick<StoreFulfillmentOrder, 'id' | 'status' | 'lineItems'>;

export interface Tracking {
  company: string;
  number: string;
  url?: string;
}

export interface CreateFulfillmentInput {
  /** Numeric id or gid. */
  orderId: string;
  /** Fulfil these fulfillment orders whole: all at one location, Shopify fulfils one per call. */
  fulfillmentOrderIds?: string[];
  /** Or fulfil just these lines. Without either, every open fulfillment order is fulfilled. */
  lineItems?: {
    fulfillmentOrderId: string;
    fulfillmentOrderLineItemId: string;
    quantity: number;
  }[];
  tracking: Tracking;
  notifyCustomer: boolean;
  orderStatus?: OrderStatusWrite;
}

export interface FulfillmentSummary {
  id: string;
  status: string;
  tracking: { company: string | null; number: string | null; url: string | null }[];
  /** By LineItem gid; null when Shopify's answer did not list them all. createFulfillment only. */
  units?: { lineItemId: string; quantity: number }[] | null;
}

/** Of Shopify's FulfillmentEventStatus, those the connector sends. */
export type FulfillmentEventStatus = 'DELIVERED' | 'IN_TRANSIT';

export interface FulfillmentOrderState
  extends Omit<StoreFulfillmentOrder, 'deliveryMethod' | 'lineItems'> {
  hasRemainingLines: boolean;
}

export interface FulfillmentState {
  id: string;
  /** SUCCESS, CANCELLED, ERROR, FAILURE, … */
  status: string;
  displayStatus: string | null;
  createdAt: string;
  deliveredAt: string | null;
  locationId: string | null;
  locationName: string | null;
  /** Made at a fulfillment service's location (a fulfillment service or another app). */
  atFulfillmentService: boolean;
  /** The order's lines it covers (LineItem gid), all of them. */
  lineItems: { lineItemId: string; quantity: number }[];
  /** Up to 5 entries. */
  tracking: { company: string | null; number: string | null; url: string | null }[];
}

export interface OrderFulfillmentState {
  /** Numeric id. */
  orderId: string;
  /** "#1003" */
  name: string;
  cancelledAt: string | null;
  /** Only those the scopes show: merchant-managed scopes hide fulfillment services' ones. */
  fulfillmentOrders: FulfillmentOrderState[];
  /** Cancelled ones too: keep status so callers can filter. */
  fulfillments: FulfillmentState[];
}

/** Fulfilling orders and following their shipments: what the status sync writes. */
export interface Fulfillments {
  /** Open ones with their unfulfilled lines, all pages. */
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
    options?: { happenedAt?: string; message?: string; orderStatus?: OrderStatusWrite },
  ): Promise<{ id: string; status: string; happenedAt: string }>;
  /** In as few requests as Shopify allows; null when the order does not exist. */
  readFulfillmentState(orderId: string): Promise<OrderFulfillmentState | null>;
  /** One request, in the order asked; null for one not found or hidden by the scopes. */
  readFulfillmentOrders(
    fulfillmentOrderIds: string[],
  ): Promise<
    (Pick<FulfillmentOrderState, 'id' | 'status' | 'supportedActions' | 'location'> | null)[]
  >;
  /** fulfillmentOrderReportProgress on one merchant-managed fulfillment order. */
  reportFulfillmentOrderProgress(
    fulfillmentOrderId: string,
    reasonNotes: string,
    options?: { orderStatus?: OrderStatusWrite },
  ): Promise<void>;
}

/** Status metafields set on the order in the same request as a fulfillment write. */
export interface OrderStatusWrite {
  orderId: string;
  metafields: MetafieldEntry[];
}
