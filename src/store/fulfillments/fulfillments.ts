import type { z } from 'zod';
import { StoreNotFoundError, StoreUserError } from '../errors.js';
import type { StoreTransport } from '../transport/admin-transport.js';
import { required } from '../transport/answers.js';
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
  async function fulfillmentLines(input: CreateFulfillmentInput) {
    if (input.lineItems?.length) {
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
    const ids = input.fulfillmentOrderIds?.length
      ? input.fulfillmentOrderIds
      : (await readOpenFulfillmentOrders(transport, input.orderId)).map((fo) => fo.id);
    // Naming only the fulfillment order fulfils all of its remaining quantities.
    return ids.map((fulfillmentOrderId) => ({ fulfillmentOrderId }));
  }

  return {
    getFulfillmentOrders: (orderId) => readOpenFulfillmentOrders(transport, orderId),

    async createFulfillment(input) {
      const lineItemsByFulfillmentOrder = await fulfillmentLines(input);
      if (lineItemsByFulfillmentOrder.length === 0) {
        throw new StoreUserError('CreateFulfillment', [
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
      const { operation, payload } = await write(
        'CreateFulfillment',
        [D.CREATE_FULFILLMENT, D.CREATE_FULFILLMENT_WITH_STATUS],
        R.createFulfillmentData,
        (data) => data.fulfillmentCreate,
        { fulfillment },
        { orderStatus: input.orderStatus, flagStatusSet: true },
      );
      return toCreatedSummary(required(payload.fulfillment, operation));
    },

    async updateFulfillmentTracking(fulfillmentId, tracking, options = {}) {
      const { operation, payload } = await write(
        'UpdateFulfillmentTracking',
        [D.UPDATE_FULFILLMENT_TRACKING],
        R.updateTrackingData,
        (data) => data.fulfillmentTrackingInfoUpdate,
        {
          fulfillmentId: gidOf('Fulfillment', fulfillmentId),
          trackingInfoInput: trackingInput(tracking),
          notifyCustomer: options.notifyCustomer ?? false,
        },
      );
      return toFulfillmentSummary(required(payload.fulfillment, operation));
    },

    async createFulfillmentEvent(fulfillmentId, status, options = {}) {
      const { orderStatus, ...event } = options;
      const { operation, payload } = await write(
        'CreateFulfillmentEvent',
        [D.CREATE_FULFILLMENT_EVENT, D.CREATE_FULFILLMENT_EVENT_WITH_STATUS],
        R.createFulfillmentEventData,
        (data) => data.fulfillmentEventCreate,
        {
          fulfillmentEvent: {
            fulfillmentId: gidOf('Fulfillment', fulfillmentId),
            status,
            ...event,
          },
        },
        { orderStatus },
      );
      return required(payload.fulfillmentEvent, operation);
    },

    readFulfillmentState: (orderId) => readFulfillmentState(transport, orderId),

    async readFulfillmentOrders(fulfillmentOrderIds) {
      if (fulfillmentOrderIds.length === 0) return [];
      const { nodes } = await transport.send(
        'ReadFulfillmentOrdersById',
        SD.READ_FULFILLMENT_ORDERS_BY_ID,
        SR.readFulfillmentOrdersByIdData,
        { ids: fulfillmentOrderIds.map((id) => gidOf('FulfillmentOrder', id)) },
      );
      return nodes.map((node) => (node ? fulfillmentOrderHead(node) : null));
    },

    async reportFulfillmentOrderProgress(fulfillmentOrderId, reasonNotes, options = {}) {
      const id = gidOf('FulfillmentOrder', fulfillmentOrderId);
      // Shopify keeps at most 256 characters of a progress report's reasonNotes.
      const notes = reasonNotes.trim().slice(0, 256);
      await write(
        'ReportFulfillmentOrderProgress',
        [D.REPORT_FULFILLMENT_ORDER_PROGRESS, D.REPORT_FULFILLMENT_ORDER_PROGRESS_WITH_STATUS],
        R.reportProgressData,
        (data) => data.fulfillmentOrderReportProgress,
        { id, progressReport: notes ? { reasonNotes: notes } : {} },
        {
          orderStatus: options.orderStatus,
          flagStatusSet: true,
          statusMayBeAbsent: true,
          notFoundId: id,
        },
      );
    },
  };

  /**
   * Sends `name`, or with the order's status metafields `${name}WithStatus`: Shopify runs the two
   * mutations in turn, so a refused write may still have set the status.
   */
  async function write<S extends z.ZodRawShape, P extends Payload>(
    name: string,
    [plain, withStatus]: readonly [string, string?],
    schema: z.ZodObject<S>,
    payloadOf: (data: z.output<z.ZodObject<S>>) => P | null,
    variables: Record<string, unknown>,
    options: {
      orderStatus?: OrderStatusWrite | undefined;
      flagStatusSet?: boolean;
      /** The progress report's answer may leave orderUpdate out. */
      statusMayBeAbsent?: boolean;
      /** The fulfillment order the progress report names: its own code says it is unknown. */
      notFoundId?: string;
    } = {},
  ) {
    const { orderStatus, notFoundId } = options;
    const operation = orderStatus ? `${name}WithStatus` : name;
    const orderUpdate = options.statusMayBeAbsent ? R.statusWrite.optional() : R.statusWrite;
    const answer = orderStatus ? schema.extend({ orderUpdate }) : schema;
    const data = await transport.send(
      operation,
      (orderStatus && withStatus) || plain,
      answer as z.ZodType<z.output<typeof schema> & { orderUpdate?: Payload | null }>,
      orderStatus
        ? {
            ...variables,
            order: {
              id: orderGidOf(orderStatus.orderId, operation),
              metafields: orderStatus.metafields,
            },
          }
        : variables,
    );
    const payload = required(payloadOf(data), operation);
    if (
      notFoundId !== undefined &&
      payload.userErrors.some((e) => e.code === 'FULFILLMENT_ORDER_NOT_FOUND')
    ) {
      throw new StoreNotFoundError(`Fulfillment order ${notFoundId} was not found in the store`, {
        operation,
      });
    }
    const status = () => required(data.orderUpdate ?? null, operation).userErrors;
    throwOnUserErrors(operation, payload.userErrors, FULFILLMENT_REFUSALS, {
      orderStatusSet: !!orderStatus && !!options.flagStatusSet && status().length === 0,
    });
    if (orderStatus) throwOnUserErrors(operation, status(), undefined, { writeMade: true });
    return { operation, payload };
  }
}

/** What every write's payload holds, orderUpdate's included. */
type Payload = NonNullable<z.output<typeof R.statusWrite>>;

function gidOf(type: 'Fulfillment' | 'FulfillmentOrder', id: string): string {
  return /^\d+$/.test(id) ? `gid://shopify/${type}/${id}` : id;
}

function trackingInput({ company, number, url }: Tracking) {
  return url ? { company, number, url } : { company, number };
}

function toFulfillmentSummary({ id, status, trackingInfo }: R.Fulfillment): FulfillmentSummary {
  return { id, status, tracking: trackingInfo };
}

function toCreatedSummary(fulfillment: R.CreatedFulfillment): FulfillmentSummary {
  const { nodes, pageInfo } = fulfillment.fulfillmentLineItems;
  return {
    ...toFulfillmentSummary(fulfillment),
    units: pageInfo.hasNextPage
      ? null
      : nodes.map((node) => ({ lineItemId: node.lineItem.id, quantity: node.quantity })),
  };
}
