import { z } from 'zod';
import { StoreNotFoundError, StoreUserError } from '../errors.js';
import type { StoreTransport } from '../transport/admin-transport.js';
import { required, userErrors } from '../transport/answers.js';
import { throwOnUserErrors } from '../transport/graphql-request.js';
import { orderGidOf } from '../transport/order-ids.js';
import * as D from './documents.js';
import { fulfillmentOrderHead, readFulfillmentState } from './fulfillment-state.js';
import { readOpenFulfillmentOrders } from './open-fulfillment-orders.js';
import { FULFILLMENT_REFUSALS } from './refusals.js';
import * as R from './responses.js';
import * as SD from './state-documents.js';
import * as SR from './state-responses.js';
import type {
  CreateFulfillmentInput,
  FulfillmentSummary,
  Fulfillments,
  OrderStatusWrite,
  Tracking,
} from './types.js';

export function createFulfillments(transport: StoreTransport): Fulfillments {
  const getFulfillmentOrders = (orderId: string) => readOpenFulfillmentOrders(transport, orderId);

  /** Shopify keeps at most this much of a progress report's reasonNotes. */
  const REASON_NOTES_MAX = 256;

  async function fulfillmentLines(input: CreateFulfillmentInput) {
    if (input.lineItems && input.lineItems.length > 0) {
      const byOrder = new Map<string, { id: string; quantity: number }[]>();
      for (const line of input.lineItems) {
        const lines = byOrder.get(line.fulfillmentOrderId) ?? [];
        lines.push({ id: line.fulfillmentOrderLineItemId, quantity: line.quantity });
        byOrder.set(line.fulfillmentOrderId, lines);
      }
      return [...byOrder].map(([fulfillmentOrderId, fulfillmentOrderLineItems]) => ({
        fulfillmentOrderId,
        fulfillmentOrderLineItems,
      }));
    }
    const ids =
      input.fulfillmentOrderIds && input.fulfillmentOrderIds.length > 0
        ? input.fulfillmentOrderIds
        : (await getFulfillmentOrders(input.orderId)).map((fo) => fo.id);
    // Naming only the fulfillment order fulfils all of its remaining quantities.
    return ids.map((fulfillmentOrderId) => ({ fulfillmentOrderId }));
  }

  return {
    getFulfillmentOrders,

    async createFulfillment(input) {
      const operation = 'CreateFulfillment';
      const lineItemsByFulfillmentOrder = await fulfillmentLines(input);
      if (lineItemsByFulfillmentOrder.length === 0) {
        throw new StoreUserError(operation, [
          {
            field: ['fulfillment', 'lineItemsByFulfillmentOrder'],
            message: 'the order has nothing left to fulfil',
          },
        ]);
      }
      const fulfillment = {
        lineItemsByFulfillmentOrder,
        trackingInfo: trackingInput(input.tracking),
        notifyCustomer: input.notifyCustomer,
      };
      if (input.orderStatus) {
        const withStatus = 'CreateFulfillmentWithStatus';
        const data = await transport.send(
          withStatus,
          D.CREATE_FULFILLMENT_WITH_STATUS,
          R.createFulfillmentData.extend(statusWriteAnswer),
          { fulfillment, order: statusInput(input.orderStatus, withStatus) },
        );
        const payload = required(data.fulfillmentCreate, withStatus);
        const status = required(data.orderUpdate, withStatus).userErrors;
        throwOnUserErrors(withStatus, payload.userErrors, FULFILLMENT_REFUSALS, {
          orderStatusSet: status.length === 0,
        });
        throwOnUserErrors(withStatus, status, undefined, { writeMade: true });
        return toCreatedSummary(required(payload.fulfillment, withStatus));
      }
      const data = await transport.send(operation, D.CREATE_FULFILLMENT, R.createFulfillmentData, {
        fulfillment,
      });
      const payload = required(data.fulfillmentCreate, operation);
      throwOnUserErrors(operation, payload.userErrors, FULFILLMENT_REFUSALS);
      return toCreatedSummary(required(payload.fulfillment, operation));
    },

    async updateFulfillmentTracking(fulfillmentId, tracking, options = {}) {
      const operation = 'UpdateFulfillmentTracking';
      const data = await transport.send(
        operation,
        D.UPDATE_FULFILLMENT_TRACKING,
        R.updateTrackingData,
        {
          fulfillmentId: fulfillmentGid(fulfillmentId),
          trackingInfoInput: trackingInput(tracking),
          notifyCustomer: options.notifyCustomer ?? false,
        },
      );
      const payload = required(data.fulfillmentTrackingInfoUpdate, operation);
      throwOnUserErrors(operation, payload.userErrors, FULFILLMENT_REFUSALS);
      return toFulfillmentSummary(required(payload.fulfillment, operation));
    },

    async createFulfillmentEvent(fulfillmentId, status, options = {}) {
      const { orderStatus, ...event } = options;
      const fulfillmentEvent = { fulfillmentId: fulfillmentGid(fulfillmentId), status, ...event };
      if (orderStatus) {
        const operation = 'CreateFulfillmentEventWithStatus';
        const data = await transport.send(
          operation,
          D.CREATE_FULFILLMENT_EVENT_WITH_STATUS,
          R.createFulfillmentEventData.extend(statusWriteAnswer),
          { fulfillmentEvent, order: statusInput(orderStatus, operation) },
        );
        const payload = required(data.fulfillmentEventCreate, operation);
        throwOnUserErrors(operation, payload.userErrors, FULFILLMENT_REFUSALS);
        throwOnUserErrors(operation, required(data.orderUpdate, operation).userErrors, undefined, {
          writeMade: true,
        });
        return required(payload.fulfillmentEvent, operation);
      }
      const operation = 'CreateFulfillmentEvent';
      const data = await transport.send(
        operation,
        D.CREATE_FULFILLMENT_EVENT,
        R.createFulfillmentEventData,
        { fulfillmentEvent },
      );
      const payload = required(data.fulfillmentEventCreate, operation);
      throwOnUserErrors(operation, payload.userErrors, FULFILLMENT_REFUSALS);
      return required(payload.fulfillmentEvent, operation);
    },

    readFulfillmentState: (orderId) => readFulfillmentState(transport, orderId),

    async readFulfillmentOrders(fulfillmentOrderIds) {
      if (fulfillmentOrderIds.length === 0) return [];
      const { nodes } = await transport.send(
        'ReadFulfillmentOrdersById',
        SD.READ_FULFILLMENT_ORDERS_BY_ID,
        SR.readFulfillmentOrdersByIdData,
        { ids: fulfillmentOrderIds.map(fulfillmentOrderGid) },
      );
      return nodes.map((node) => (node ? fulfillmentOrderHead(node) : null));
    },

    async reportFulfillmentOrderProgress(fulfillmentOrderId, reasonNotes, options = {}) {
      const { orderStatus } = options;
      const operation = orderStatus
        ? 'ReportFulfillmentOrderProgressWithStatus'
        : 'ReportFulfillmentOrderProgress';
      const id = fulfillmentOrderGid(fulfillmentOrderId);
      const notes = reasonNotes.trim().slice(0, REASON_NOTES_MAX);
      const variables = { id, progressReport: notes ? { reasonNotes: notes } : {} };
      const data = await transport.send(
        operation,
        orderStatus
          ? D.REPORT_FULFILLMENT_ORDER_PROGRESS_WITH_STATUS
          : D.REPORT_FULFILLMENT_ORDER_PROGRESS,
        SR.reportProgressData.extend({ orderUpdate: statusWriteAnswer.orderUpdate.optional() }),
        orderStatus ? { ...variables, order: statusInput(orderStatus, operation) } : variables,
      );
      const payload = required(data.fulfillmentOrderReportProgress, operation);
      if (payload.userErrors.some((e) => e.code === 'FULFILLMENT_ORDER_NOT_FOUND')) {
        throw new StoreNotFoundError(`Fulfillment order ${id} was not found in the store`, {
          operation,
        });
      }
      const status = orderStatus
        ? required(data.orderUpdate ?? null, operation).userErrors
        : undefined;
      throwOnUserErrors(operation, payload.userErrors, FULFILLMENT_REFUSALS, {
        orderStatusSet: status?.length === 0,
      });
      if (status) throwOnUserErrors(operation, status, undefined, { writeMade: true });
    },
  };
}

/** The orderUpdate half of a write that also sets the order's status metafields. */
const statusWriteAnswer = { orderUpdate: z.object({ userErrors }).nullable() };

function statusInput({ orderId, metafields }: OrderStatusWrite, operation: string) {
  return { id: orderGidOf(orderId, operation), metafields };
}

function fulfillmentGid(id: string): string {
  return /^\d+$/.test(id) ? `gid://shopify/Fulfillment/${id}` : id;
}

function fulfillmentOrderGid(id: string): string {
  return /^\d+$/.test(id) ? `gid://shopify/FulfillmentOrder/${id}` : id;
}

function trackingInput(tracking: Tracking) {
  return {
    company: tracking.company,
    number: tracking.number,
    ...(tracking.url ? { url: tracking.url } : {}),
  };
}

function toFulfillmentSummary(fulfillment: {
  id: string;
  status: string;
  trackingInfo: { company: string | null; number: string | null; url: string | null }[];
}): FulfillmentSummary {
  return { id: fulfillment.id, status: fulfillment.status, tracking: fulfillment.trackingInfo };
}

function toCreatedSummary(
  fulfillment: Parameters<typeof toFulfillmentSummary>[0] & {
    fulfillmentLineItems: {
      nodes: { quantity: number; lineItem: { id: string } }[];
      pageInfo: { hasNextPage: boolean };
    };
  },
): FulfillmentSummary {
  const { nodes, pageInfo } = fulfillment.fulfillmentLineItems;
  return {
    ...toFulfillmentSummary(fulfillment),
    units: pageInfo.hasNextPage
      ? null
      : nodes.map((node) => ({ lineItemId: node.lineItem.id, quantity: node.quantity })),
  };
}
