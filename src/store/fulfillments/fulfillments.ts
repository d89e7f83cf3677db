import { StoreUserError } from '../errors.js';
import type { StoreTransport } from '../transport/admin-transport.js';
import { required } from '../transport/answers.js';
import { throwOnUserErrors } from '../transport/graphql-request.js';
import * as D from './documents.js';
import { readOpenFulfillmentOrders } from './open-fulfillment-orders.js';
import * as R from './responses.js';
import type {
  CreateFulfillmentInput,
  FulfillmentSummary,
  Fulfillments,
  Tracking,
} from './types.js';

export function createFulfillments(transport: StoreTransport): Fulfillments {
  const getFulfillmentOrders = (orderId: string) => readOpenFulfillmentOrders(transport, orderId);

  /** fulfillmentCreate's lineItemsByFulfillmentOrder for the lines or orders the input names. */
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
      const data = await transport.send(operation, D.CREATE_FULFILLMENT, R.createFulfillmentData, {
        fulfillment: {
          lineItemsByFulfillmentOrder,
          trackingInfo: trackingInput(input.tracking),
          notifyCustomer: input.notifyCustomer,
        },
      });
      const payload = required(data.fulfillmentCreate, operation);
      throwOnUserErrors(operation, payload.userErrors);
      return toFulfillmentSummary(required(payload.fulfillment, operation));
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
      throwOnUserErrors(operation, payload.userErrors);
      return toFulfillmentSummary(required(payload.fulfillment, operation));
    },

    async createFulfillmentEvent(fulfillmentId, status, options = {}) {
      const operation = 'CreateFulfillmentEvent';
      const data = await transport.send(
        operation,
        D.CREATE_FULFILLMENT_EVENT,
        R.createFulfillmentEventData,
        { fulfillmentEvent: { fulfillmentId: fulfillmentGid(fulfillmentId), status, ...options } },
      );
      const payload = required(data.fulfillmentEventCreate, operation);
      throwOnUserErrors(operation, payload.userErrors);
      return required(payload.fulfillmentEvent, operation);
    },
  };
}

function fulfillmentGid(id: string): string {
  return /^\d+$/.test(id) ? `gid://shopify/Fulfillment/${id}` : id;
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
