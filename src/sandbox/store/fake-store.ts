import type { CostBucketStats } from './cost-bucket.js';
import type { FakeGraphqlRequest } from './graphql-route.js';
import type {
  FakeFulfillment,
  FakeFulfillmentOrder,
  FakeLocation,
  FakeMetafieldDefinition,
  FakeOrder,
  FakeOrderChange,
  FakeOrderInput,
  FakeStaffFulfil,
  FakeWebhookSubscription,
} from './model.js';
import type { FakeCustomerNotification, FakeMutation } from './state.js';
import type { DropAnswersOptions, ServerErrorOptions } from './traffic.js';
import type { WebhookDelivery } from './webhooks.js';

/** The fake store as its users (the demo, the tests, its control routes) drive it. */

export interface WebhookChoice {
  /** Send the webhook here (instead of the store's webhookUrl). */
  webhookUrl?: string;
  /** false: no webhook even when a URL is known. */
  sendWebhook?: boolean;
}

type Changed = Promise<{ order: FakeOrder; webhook?: WebhookDelivery }>;

export interface FakeStore {
  /** Origin to use as adminApiUrl, e.g. http://127.0.0.1:4020 */
  readonly url: string;
  readonly shop: string;
  close(): Promise<void>;
  /** Adds an order (defaults fill what `order` leaves out) and may send orders/create. */
  createOrder(order?: FakeOrderInput, options?: WebhookChoice): Changed;
  /** Cancel, mark paid, retag…; may send orders/cancelled, orders/paid or orders/updated. */
  updateOrder(id: string, change: FakeOrderChange, options?: WebhookChoice): Changed;
  /** A copy of the order with its current tags, note, metafields and fulfillments. */
  order(id: string): FakeOrder | undefined;
  orders(): FakeOrder[];
  /** Every change made through the Admin API, oldest first. */
  readonly mutations: readonly FakeMutation[];
  /** The webhooks sent so far, once answered, oldest first; and how many await an answer. */
  webhookDeliveries(): { answered: WebhookDelivery[]; sending: number };
  /** Every GraphQL request, oldest first. */
  readonly requests: readonly FakeGraphqlRequest[];
  /** How many client-credentials tokens were handed out. */
  readonly tokenRequests: number;
  /** Answer the next `count` GraphQL requests with HTTP 200 THROTTLED. */
  throttleNext(
    count: number,
    options?: { currentlyAvailable?: number; restoreRate?: number },
  ): void;
  /** The cost bucket's state and what it saw, when the store was started with one. */
  costBucket():
    | (CostBucketStats & {
        maximumAvailable: number;
        currentlyAvailable: number;
        restoreRate: number;
      })
    | undefined;
  /** Answer the next `count` GraphQL requests with HTTP 429 and Retry-After. */
  rateLimitNext(count: number, options?: { retryAfterSeconds?: number }): void;
  /** Invalidate every client-credentials token handed out so far (the fixed token stays valid). */
  revokeTokens(): void;

  /**
   * Staff fulfil the order in the admin (no tracking: "Mark as fulfilled"), one fulfillment per
   * merchant location with something left; not in `mutations`. Throws when nothing can be.
   */
  fulfil(
    orderId: string,
    input?: FakeStaffFulfil,
    options?: WebhookChoice,
  ): Promise<{ order: FakeOrder; fulfillments: FakeFulfillment[]; webhook?: WebhookDelivery }>;
  /** Staff put a fulfillment order (number or gid) on hold; reason OTHER unless given. */
  holdFulfillmentOrder(
    fulfillmentOrderId: string,
    hold?: { reason?: string; reasonNotes?: string | null },
    options?: WebhookChoice,
  ): Promise<{
    order: FakeOrder;
    fulfillmentOrder: FakeFulfillmentOrder;
    webhook?: WebhookDelivery;
  }>;
  /**
   * Staff move a fulfillment order's units left to another location (by name): the same
   * fulfillment order when nothing of it was fulfilled, else a new one; answers the one now at
   * the destination. `lines` (by title): only these units, to a new fulfillment order.
   */
  moveFulfillmentOrder(
    fulfillmentOrderId: string,
    location: string,
    lines?: { title: string; quantity: number }[],
  ): Promise<FakeFulfillmentOrder>;
  /** Staff release a held fulfillment order: OPEN again (IN_PROGRESS if it had started). */
  releaseHold(
    fulfillmentOrderId: string,
    options?: WebhookChoice,
  ): Promise<{
    order: FakeOrder;
    fulfillmentOrder: FakeFulfillmentOrder;
    webhook?: WebhookDelivery;
  }>;
  /**
   * Shopify stops (false) or starts again (true) offering the app fulfilment of an open
   * fulfillment order: CREATE_FULFILLMENT leaves or rejoins its supportedActions.
   */
  offerFulfilment(fulfillmentOrderId: string, offered: boolean): FakeFulfillmentOrder;
  /**
   * Staff "Fulfill early" a scheduled fulfillment order (fulfillmentOrderOpen): OPEN ahead of
   * its fulfillAt, left as it was.
   */
  openEarly(fulfillmentOrderId: string): FakeFulfillmentOrder;
  /**
   * How fulfillmentCreate answers a request for more of a line than is left, which Shopify's
   * reference does not say: refused whole (default, as users report it) or fulfilling what is left.
   */
  setOverQuantityAnswer(answer: 'refuse' | 'fulfil-what-is-left'): void;
  /** Emails Shopify sent customers about fulfillments (confirmations, updates), oldest first. */
  readonly notifications: readonly FakeCustomerNotification[];
  /** The store's locations ("Shop location", "Aarhus warehouse", "Another app's warehouse", …). */
  locations(): FakeLocation[];
  /**
   * The merchant renames a location (the admin, or Shopify's locationEdit): it keeps its id, and
   * its fulfillment orders and fulfillments show the new name.
   */
  renameLocation(name: string, newName: string): FakeLocation;
  /** The scopes currentAppInstallation.accessScopes reports (and client credentials grant). */
  accessScopes(): string[];
  setAccessScopes(scopes: string[]): void;
  webhookSubscriptions(): FakeWebhookSubscription[];
  metafieldDefinitions(): FakeMetafieldDefinition[];
  /**
   * Apply the next `count` matching mutations, then lose their answers (HTTP 502, or a destroyed
   * connection), so a client cannot tell whether they happened.
   */
  dropNextAnswers(options: DropAnswersOptions): void;
  /** Answer the next `count` matching GraphQL requests with a 5xx, without running them. */
  serverErrorNext(options: ServerErrorOptions): void;
}
