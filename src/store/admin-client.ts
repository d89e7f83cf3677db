import type { z } from 'zod';
import {
  orderGid,
  parseOrderId,
  type StoreOrder,
  type StoreOrderSummary,
} from '../domain/order.js';
import type { Logger } from '../log.js';
import {
  type AdminSessions,
  clientCredentialsSessions,
  fixedTokenSessions,
} from './access-token.js';
import { StoreNotFoundError, StoreRequestError, StoreUserError } from './errors.js';
import { shopFetch } from './fetch-routing.js';
import { AdminGraphql, throwOnUserErrors } from './graphql-request.js';
import { toStoreOrder, toStoreOrderSummary } from './order-mapper.js';
import * as Q from './queries.js';
import * as R from './responses.js';
import { createAdminShopify, type ShopifyAuth } from './shopify.js';
import type {
  CreateFulfillmentInput,
  FulfillmentEventStatus,
  FulfillmentOrderLine,
  FulfillmentSummary,
  MetafieldEntry,
  MetafieldKey,
  OpenFulfillmentOrder,
  StoreClient,
  Tracking,
} from './types.js';
import { createWebhookVerifier, type VerifyWebhook, type WebhookHeaders } from './webhooks.js';

export interface AdminClientOptions {
  /** name.myshopify.com */
  shop: string;
  auth: ShopifyAuth;
  /** e.g. "2026-07" */
  apiVersion: string;
  /** Send every Admin API request (and the token request) here instead of https://{shop}. */
  adminApiUrl?: string;
  webhookSecret: string;
  logger: Logger;
  /** Throttle waits allowed per call before StoreThrottledError (default 10). */
  maxThrottleWaits?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/**
 * Orders per ListOrdersUpdatedSince page. Each listed order costs 2 points of requested query cost
 * (scalars and one metafield), so a page costs 2 + 200 = 202, far below Shopify's 1,000 per query;
 * test/store/query-cost.test.ts checks the document with this value.
 */
export const ORDERS_PAGE_SIZE = 100;
/** Line items read per order (GetOrder's `lineItems(first: …)`). */
const ORDER_LINE_ITEMS_READ = 100;
const METAFIELDS_PER_CALL = 25;
const OPEN_FULFILLMENT_ORDER_STATUSES = new Set(['OPEN', 'IN_PROGRESS']);

export function createStoreClient(options: AdminClientOptions): ShopifyAdminClient {
  return new ShopifyAdminClient(options);
}

/** The store side over @shopify/shopify-api's Admin GraphQL client. */
export class ShopifyAdminClient implements StoreClient {
  private readonly graphql: AdminGraphql;
  private readonly logger: Logger;
  private readonly verifier: VerifyWebhook;

  constructor(options: AdminClientOptions) {
    this.logger = options.logger.child({ module: 'store' });
    const shopify = createAdminShopify({ ...options, logger: this.logger });
    const fetch = shopFetch(options.shop, options.adminApiUrl);
    const sessions: AdminSessions =
      options.auth.kind === 'accessToken'
        ? fixedTokenSessions(shopify, options.shop)
        : clientCredentialsSessions({
            shopify,
            shop: options.shop,
            fetch,
            logger: this.logger,
            ...(options.now ? { now: options.now } : {}),
          });
    this.graphql = new AdminGraphql({
      shopify,
      sessions,
      fetch,
      logger: this.logger,
      maxThrottleWaits: options.maxThrottleWaits ?? 10,
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    });
    this.verifier = createWebhookVerifier({
      webhookSecret: options.webhookSecret,
      apiVersion: options.apiVersion,
      shop: options.shop,
      logger: this.logger,
    });
  }

  async getOrder(id: string): Promise<StoreOrder | null> {
    const gid = orderGidOf(id, 'GetOrder');
    const data = await this.send('GetOrder', Q.GET_ORDER, R.getOrderData, { id: gid });
    return data.order ? this.mapOrder(data.order) : null;
  }

  async listOrdersUpdatedSince(
    since: Date,
    after?: string,
  ): Promise<{ orders: StoreOrderSummary[]; nextCursor: string | null }> {
    const operation = 'ListOrdersUpdatedSince';
    // Whole seconds, rounded down: the window may only grow, never skip an update.
    const timestamp = since.toISOString().replace(/\.\d{3}Z$/, 'Z');
    const data = await this.send(operation, Q.LIST_ORDERS_UPDATED_SINCE, R.listOrdersData, {
      first: ORDERS_PAGE_SIZE,
      after: after ?? null,
      query: `updated_at:>='${timestamp}'`,
    });
    const { nodes, pageInfo } = data.orders;
    return {
      orders: nodes.map(toStoreOrderSummary),
      nextCursor: nextCursor(pageInfo, operation),
    };
  }

  async setOrderMetafields(orderId: string, entries: MetafieldEntry[]): Promise<void> {
    const operation = 'SetOrderMetafields';
    const ownerId = orderGidOf(orderId, operation);
    if (entries.length === 0) return;
    // metafieldsSet is atomic for up to 25; splitting would give up that guarantee silently.
    if (entries.length > METAFIELDS_PER_CALL) {
      throw new StoreUserError(operation, [
        { field: ['metafields'], message: `at most ${METAFIELDS_PER_CALL} metafields per call` },
      ]);
    }
    const data = await this.send(operation, Q.SET_METAFIELDS, R.setMetafieldsData, {
      metafields: entries.map((e) => ({ ownerId, ...e })),
    });
    throwOnUserErrors(operation, required(data.metafieldsSet, operation).userErrors);
  }

  async deleteOrderMetafields(orderId: string, keys: MetafieldKey[]): Promise<void> {
    const operation = 'DeleteOrderMetafields';
    const ownerId = orderGidOf(orderId, operation);
    // Shopify wants at least one identifier.
    if (keys.length === 0) return;
    // Shopify introduced metafieldsDelete (2024-04) for up to 25 at once; we never need more.
    if (keys.length > METAFIELDS_PER_CALL) {
      throw new StoreUserError(operation, [
        { field: ['metafields'], message: `at most ${METAFIELDS_PER_CALL} metafields per call` },
      ]);
    }
    const data = await this.send(operation, Q.DELETE_METAFIELDS, R.deleteMetafieldsData, {
      metafields: keys.map(({ namespace, key }) => ({ ownerId, namespace, key })),
    });
    // A null entry in deletedMetafields is a metafield that was not there: already the aim.
    throwOnUserErrors(operation, required(data.metafieldsDelete, operation).userErrors);
  }

  async addOrderTags(orderId: string, tags: string[]): Promise<void> {
    const operation = 'AddOrderTags';
    const id = orderGidOf(orderId, operation);
    if (tags.length === 0) return;
    const data = await this.send(operation, Q.ADD_TAGS, R.addTagsData, { id, tags });
    throwOnUserErrors(operation, required(data.tagsAdd, operation).userErrors);
  }

  async removeOrderTags(orderId: string, tags: string[]): Promise<void> {
    const operation = 'RemoveOrderTags';
    const id = orderGidOf(orderId, operation);
    if (tags.length === 0) return;
    const data = await this.send(operation, Q.REMOVE_TAGS, R.removeTagsData, { id, tags });
    throwOnUserErrors(operation, required(data.tagsRemove, operation).userErrors);
  }

  async appendOrderNote(orderId: string, text: string): Promise<void> {
    const operation = 'UpdateOrderNote';
    const id = orderGidOf(orderId, operation);
    const line = text.trim();
    if (line === '') return;
    const current = await this.send('GetOrderNote', Q.GET_ORDER_NOTE, R.getOrderNoteData, { id });
    if (!current.order) throw notFound(orderId, operation);
    const note = current.order.note ?? '';
    // A retried job must not write the same line twice.
    if (note.split('\n').some((existing) => existing.trim() === line)) return;
    // Shopify has no "append": an edit made between our read and write would be lost. Notes are
    // rarely edited by hand while a shipment is being registered, so we accept that window.
    const data = await this.send(operation, Q.UPDATE_ORDER_NOTE, R.updateOrderNoteData, {
      input: { id, note: note ? `${note.replace(/\n+$/, '')}\n${line}` : line },
    });
    throwOnUserErrors(operation, required(data.orderUpdate, operation).userErrors);
  }

  /**
   * The order's open fulfillment orders with the lines that still have something to fulfil.
   * Each request stays far below Shopify's per-query cost limit, so this pages: through the
   * fulfillment orders five at a time, and through the lines of an open one beyond its first 50.
   */
  async getFulfillmentOrders(orderId: string): Promise<OpenFulfillmentOrder[]> {
    const operation = 'GetFulfillmentOrders';
    const id = orderGidOf(orderId, operation);
    const open: OpenFulfillmentOrder[] = [];
    let after: string | null = null;
    do {
      const data: z.output<typeof R.getFulfillmentOrdersData> = await this.send(
        operation,
        Q.GET_FULFILLMENT_ORDERS,
        R.getFulfillmentOrdersData,
        { id, after },
      );
      if (!data.order) throw notFound(orderId, operation);
      const { nodes, pageInfo } = data.order.fulfillmentOrders;
      for (const fo of nodes) {
        if (!OPEN_FULFILLMENT_ORDER_STATUSES.has(fo.status)) continue;
        const lines = await this.allFulfillmentOrderLines(fo.id, fo.lineItems, operation);
        const remaining = lines.filter((line) => line.remainingQuantity > 0);
        if (remaining.length > 0) open.push({ id: fo.id, status: fo.status, lineItems: remaining });
      }
      after = nextCursor(pageInfo, operation);
    } while (after);
    return open;
  }

  async createFulfillment(input: CreateFulfillmentInput): Promise<FulfillmentSummary> {
    const operation = 'CreateFulfillment';
    const lineItemsByFulfillmentOrder = await this.fulfillmentLines(input);
    if (lineItemsByFulfillmentOrder.length === 0) {
      throw new StoreUserError(operation, [
        {
          field: ['fulfillment', 'lineItemsByFulfillmentOrder'],
          message: 'the order has nothing left to fulfil',
        },
      ]);
    }
    const data = await this.send(operation, Q.CREATE_FULFILLMENT, R.createFulfillmentData, {
      fulfillment: {
        lineItemsByFulfillmentOrder,
        trackingInfo: trackingInput(input.tracking),
        notifyCustomer: input.notifyCustomer,
      },
    });
    const payload = required(data.fulfillmentCreate, operation);
    throwOnUserErrors(operation, payload.userErrors);
    return toFulfillmentSummary(required(payload.fulfillment, operation));
  }

  async updateFulfillmentTracking(
    fulfillmentId: string,
    tracking: Tracking,
    options: { notifyCustomer?: boolean } = {},
  ): Promise<FulfillmentSummary> {
    const operation = 'UpdateFulfillmentTracking';
    const data = await this.send(operation, Q.UPDATE_FULFILLMENT_TRACKING, R.updateTrackingData, {
      fulfillmentId: fulfillmentGid(fulfillmentId),
      trackingInfoInput: trackingInput(tracking),
      notifyCustomer: options.notifyCustomer ?? false,
    });
    const payload = required(data.fulfillmentTrackingInfoUpdate, operation);
    throwOnUserErrors(operation, payload.userErrors);
    return toFulfillmentSummary(required(payload.fulfillment, operation));
  }

  async createFulfillmentEvent(
    fulfillmentId: string,
    status: FulfillmentEventStatus,
    options: { happenedAt?: string; message?: string } = {},
  ): Promise<{ id: string; status: string; happenedAt: string }> {
    const operation = 'CreateFulfillmentEvent';
    const data = await this.send(
      operation,
      Q.CREATE_FULFILLMENT_EVENT,
      R.createFulfillmentEventData,
      { fulfillmentEvent: { fulfillmentId: fulfillmentGid(fulfillmentId), status, ...options } },
    );
    const payload = required(data.fulfillmentEventCreate, operation);
    throwOnUserErrors(operation, payload.userErrors);
    return required(payload.fulfillmentEvent, operation);
  }

  verifyWebhook(rawBody: string, headers: WebhookHeaders) {
    return this.verifier(rawBody, headers);
  }

  private async send<S extends z.ZodType>(
    operation: string,
    document: string,
    schema: S,
    variables: Record<string, unknown>,
  ): Promise<z.output<S>> {
    const data = await this.graphql.request(operation, document, variables);
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new StoreRequestError(
        `Shopify's answer to ${operation} has an unexpected shape (at ${issue?.path.join('.') || 'top level'})`,
        { operation, cause: parsed.error },
      );
    }
    return parsed.data;
  }

  private mapOrder(node: Parameters<typeof toStoreOrder>[0]): StoreOrder {
    const order = toStoreOrder(node);
    if (node.lineItems.pageInfo.hasNextPage) {
      // A shipment cannot be amended once registered, so a partial one would be worse than none.
      throw new StoreRequestError(
        `Order ${order.name} has more than ${ORDER_LINE_ITEMS_READ} line items, more than the connector reads; register its shipment by hand.`,
        { operation: 'GetOrder' },
      );
    }
    return order;
  }

  /** The first page of a fulfillment order's lines as given, and every further page fetched. */
  private async allFulfillmentOrderLines(
    fulfillmentOrderId: string,
    firstPage: R.FulfillmentOrderLinesPage,
    operation: string,
  ): Promise<FulfillmentOrderLine[]> {
    const nodes = [...firstPage.nodes];
    let after = nextCursor(firstPage.pageInfo, operation);
    while (after) {
      const more = await this.send(
        'GetFulfillmentOrderLineItems',
        Q.GET_FULFILLMENT_ORDER_LINE_ITEMS,
        R.getFulfillmentOrderLineItemsData,
        { id: fulfillmentOrderId, after },
      );
      // Gone between two requests (e.g. the order was edited): its lines cannot be trusted.
      if (!more.fulfillmentOrder) {
        throw new StoreRequestError(
          `Fulfillment order ${fulfillmentOrderId} disappeared while its lines were read`,
          { operation: 'GetFulfillmentOrderLineItems', retryable: true },
        );
      }
      nodes.push(...more.fulfillmentOrder.lineItems.nodes);
      after = nextCursor(more.fulfillmentOrder.lineItems.pageInfo, 'GetFulfillmentOrderLineItems');
    }
    return nodes.map((line) => ({
      id: line.id,
      lineItemId: line.lineItem.id,
      totalQuantity: line.totalQuantity,
      remainingQuantity: line.remainingQuantity,
    }));
  }

  private async fulfillmentLines(input: CreateFulfillmentInput) {
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
        : (await this.getFulfillmentOrders(input.orderId)).map((fo) => fo.id);
    // Naming only the fulfillment order fulfils all of its remaining quantities.
    return ids.map((fulfillmentOrderId) => ({ fulfillmentOrderId }));
  }
}

function orderGidOf(id: string, operation: string): string {
  const numeric = parseOrderId(id);
  if (numeric === null) {
    throw new StoreNotFoundError(`"${id}" is not a Shopify order id`, { operation });
  }
  return orderGid(numeric);
}

/** The cursor of the next page, or null after the last one. */
function nextCursor(
  pageInfo: { hasNextPage: boolean; endCursor: string | null },
  operation: string,
): string | null {
  if (!pageInfo.hasNextPage) return null;
  // Stopping here would silently drop the rest; asking again from the start would never end.
  if (!pageInfo.endCursor) {
    throw new StoreRequestError(`Shopify's answer to ${operation} has a next page but no cursor`, {
      operation,
    });
  }
  return pageInfo.endCursor;
}

function fulfillmentGid(id: string): string {
  return /^\d+$/.test(id) ? `gid://shopify/Fulfillment/${id}` : id;
}

function notFound(orderId: string, operation: string): StoreNotFoundError {
  return new StoreNotFoundError(`Order ${parseOrderId(orderId)} was not found in the store`, {
    operation,
  });
}

/** A mutation payload is null only when Shopify also sent errors; guard anyway. */
function required<T>(value: T | null, operation: string): T {
  if (value === null) {
    throw new StoreRequestError(`Shopify's answer to ${operation} has no result`, { operation });
  }
  return value;
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
