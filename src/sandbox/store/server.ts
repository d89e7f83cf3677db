import Fastify, { type FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { createLogger, type Logger } from '../../log.js';
import { controlRoutes } from './control-routes.js';
import { CostBucket, type CostBucketOptions } from './cost-bucket.js';
import type { FakeStore, WebhookChoice } from './fake-store.js';
import { fixtureOrders } from './fixtures/index.js';
import {
  holdFulfillmentOrder,
  moveFulfillmentOrder,
  offerFulfilment,
  openEarly,
  releaseHold as releaseFulfillmentHold,
  staffFulfil,
} from './fulfillment-orders.js';
import { gid } from './gid.js';
import { type FakeGraphqlRequest, graphqlRoute } from './graphql-route.js';
import type { FakeFulfillmentOrder, FakeOrder, FakeOrderInput } from './model.js';
import { createRootValue } from './resolvers.js';
import { FakeStoreState, type Result } from './state.js';
import { FakeTokens } from './tokens.js';
import { TrafficControl } from './traffic.js';
import { headerTopic } from './webhook-topics.js';
import { deliverWebhook, orderWebhookPayload, type WebhookDelivery } from './webhooks.js';

export type { FakeGraphqlRequest } from './graphql-route.js';

export interface FakeStoreOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  shop: string;
  /** The fixed Admin API token the store accepts. */
  accessToken: string;
  webhookSecret: string;
  /** Enables POST /admin/oauth/access_token (client credentials) with these. */
  clientId?: string;
  clientSecret?: string;
  /** Lifetime of client-credentials tokens (default 86399 s, as Shopify). */
  tokenTtlSeconds?: number;
  /** Where order webhooks go when a call names no URL; none means no webhooks by default. */
  webhookUrl?: string;
  apiVersion?: string;
  /** Shop.name (default "Demo Store"). */
  shopName?: string;
  /** Granted scopes; the connector's full set by default (app-setup.ts). */
  accessScopes?: string[];
  /** Seed orders; the bundled Danish fixtures when omitted. */
  orders?: FakeOrderInput[];
  logger?: Logger;
  now?: () => Date;
  /**
   * Model Shopify's cost bucket: requested cost charged up front, refunded to the actual cost,
   * THROTTLED when short, refilled at `restoreRate`. Off by default: every query runs.
   */
  costBucket?: CostBucketOptions;
}

const tokenRequestSchema = z.object({
  client_id: z.string(),
  client_secret: z.string(),
  grant_type: z.literal('client_credentials'),
});

/** A local stand-in for one Shopify store's Admin API, for demos and end-to-end tests. */
export async function startFakeStore(options: FakeStoreOptions): Promise<FakeStore> {
  const apiVersion = options.apiVersion ?? '2026-10';
  const logger = (options.logger ?? createLogger({ level: 'silent' })).child({
    module: 'fake-store',
  });
  const state = new FakeStoreState(options.now ?? (() => new Date()));
  if (options.accessScopes) state.app.accessScopes = [...options.accessScopes];
  for (const order of options.orders ?? fixtureOrders()) state.createOrder(order);
  const tokens = new FakeTokens(options.accessToken, options.tokenTtlSeconds ?? 86_399);
  const traffic = new TrafficControl();
  const requests: FakeGraphqlRequest[] = [];
  const bucket = options.costBucket ? new CostBucket(options.costBucket) : undefined;

  /**
   * Sends the order's webhook to the URL the call or the options name; without one, to every
   * subscription made with webhookSubscriptionCreate for that topic.
   */
  const webhooksAnswered: WebhookDelivery[] = [];
  let webhooksSending = 0;

  async function announce(topic: string, order: FakeOrder, choice: WebhookChoice = {}) {
    if (choice.sendWebhook === false) return undefined;
    return deliver(topic, orderWebhookPayload(order), choice.webhookUrl ?? options.webhookUrl, {
      orderId: order.id,
    });
  }

  /**
   * A fulfillment order topic, to the apps subscribed to it (or the URL named): its payload is
   * the fulfillment order's id and status, as in Shopify's webhook reference.
   */
  async function announceFulfillmentOrder(
    topic: string,
    fo: FakeFulfillmentOrder,
    choice: WebhookChoice = {},
  ) {
    if (choice.sendWebhook === false) return undefined;
    const payload = {
      fulfillment_order: { id: gid('FulfillmentOrder', fo.id), status: fo.status.toLowerCase() },
    };
    return deliver(topic, payload, choice.webhookUrl, {});
  }

  /** To the URL named, else to every subscription made for the topic; the first delivery. */
  async function deliver(
    topic: string,
    payload: unknown,
    named: string | undefined,
    about: Record<string, unknown>,
  ) {
    const urls = named
      ? [named]
      : state.app.webhookSubscriptions
          .filter((s) => headerTopic(s.topic) === topic)
          .map((s) => s.uri);
    let first: WebhookDelivery | undefined;
    for (const url of urls) {
      webhooksSending += 1;
      const delivery = await deliverWebhook({
        url,
        topic,
        shop: options.shop,
        secret: options.webhookSecret,
        apiVersion,
        payload,
      }).finally(() => {
        webhooksSending -= 1;
      });
      webhooksAnswered.push(delivery);
      logger.info({ topic, ...about, status: delivery.status }, 'sent webhook');
      first ??= delivery;
    }
    return first;
  }

  /** A staff action's outcome, or its refusal as an error for the caller. */
  function unwrap<T>(result: Result<T>): T {
    if (!result.ok) throw new Error(result.userErrors.map((e) => e.message).join('; '));
    return result.value;
  }

  const app = Fastify({ loggerInstance: logger as FastifyBaseLogger });
  const store: FakeStore & { url: string; close: () => Promise<void> } = {
    url: '',
    shop: options.shop,
    async createOrder(input = {}, choice) {
      const order = state.createOrder(input);
      const webhook = await announce('orders/create', order, choice);
      return { order: structuredClone(order), ...(webhook ? { webhook } : {}) };
    },
    async updateOrder(id, change, choice) {
      const { order, topic } = state.updateOrder(id, change);
      const webhook = await announce(topic, order, choice);
      return { order: structuredClone(order), ...(webhook ? { webhook } : {}) };
    },
    order: (id) => {
      const order = state.orders.get(id);
      return order && structuredClone(order);
    },
    orders: () => structuredClone([...state.orders.values()]),
    mutations: state.mutations,
    webhookDeliveries: () => ({ answered: [...webhooksAnswered], sending: webhooksSending }),
    requests,
    get tokenRequests() {
      return tokens.issuedCount;
    },
    throttleNext: (count, opts) => traffic.throttleNext(count, opts),
    costBucket: () => bucket && { ...bucket.stats, ...bucket.throttleStatus() },
    rateLimitNext: (count, opts) => traffic.rateLimitNext(count, opts),
    revokeTokens: () => tokens.revokeIssued(),
    async fulfil(orderId, input = {}, choice) {
      const { order, fulfillments } = unwrap(staffFulfil(state, orderId, input));
      const webhook = await announce('orders/updated', order, choice);
      return {
        order: structuredClone(order),
        fulfillments: structuredClone(fulfillments),
        ...(webhook ? { webhook } : {}),
      };
    },
    async holdFulfillmentOrder(id, hold, choice) {
      const fulfillmentOrder = unwrap(holdFulfillmentOrder(state, id, hold));
      return afterFulfillmentOrderChange(fulfillmentOrder, choice);
    },
    async moveFulfillmentOrder(id, location, lines) {
      // Shopify announces it as fulfillment_orders/moved; no webhook is sent here.
      const fulfillmentOrder = unwrap(moveFulfillmentOrder(state, id, location, lines));
      return structuredClone(fulfillmentOrder);
    },
    async releaseHold(id, choice) {
      const fulfillmentOrder = unwrap(releaseFulfillmentHold(state, id));
      // Shopify announces a release as fulfillment_orders/hold_released, whose payload names the
      // fulfillment order only; nothing documents an orders/updated for it.
      const webhook = await announceFulfillmentOrder(
        'fulfillment_orders/hold_released',
        fulfillmentOrder,
        choice,
      );
      return {
        order: structuredClone(
          state.findFulfillmentOrder(gid('FulfillmentOrder', fulfillmentOrder.id))!.order,
        ),
        fulfillmentOrder: structuredClone(fulfillmentOrder),
        ...(webhook ? { webhook } : {}),
      };
    },
    setOverQuantityAnswer: (answer) => {
      state.overQuantity = answer;
    },
    offerFulfilment: (id, offered) => structuredClone(unwrap(offerFulfilment(state, id, offered))),
    openEarly: (id) => structuredClone(unwrap(openEarly(state, id))),
    notifications: state.notifications,
    locations: () => structuredClone(state.locations),
    renameLocation: (name, newName) => structuredClone(state.renameLocation(name, newName)),
    accessScopes: () => [...state.app.accessScopes],
    setAccessScopes: (scopes) => {
      state.app.accessScopes = [...scopes];
    },
    webhookSubscriptions: () => structuredClone(state.app.webhookSubscriptions),
    metafieldDefinitions: () => structuredClone(state.app.metafieldDefinitions),
    dropNextAnswers: (opts) => traffic.dropNextAnswers(opts),
    serverErrorNext: (opts) => traffic.serverErrorNext(opts),
    close: () => app.close(),
  };

  async function afterFulfillmentOrderChange(
    fulfillmentOrder: FakeFulfillmentOrder,
    choice: WebhookChoice | undefined,
  ) {
    const { order } = state.findFulfillmentOrder(
      `gid://shopify/FulfillmentOrder/${fulfillmentOrder.id}`,
    )!;
    const webhook = await announce('orders/updated', order, choice);
    return {
      order: structuredClone(order),
      fulfillmentOrder: structuredClone(fulfillmentOrder),
      ...(webhook ? { webhook } : {}),
    };
  }

  graphqlRoute(app, {
    rootValue: createRootValue(state, {
      name: options.shopName ?? 'Demo Store',
      domain: options.shop,
    }),
    tokens,
    traffic,
    requests,
    ...(bucket ? { bucket } : {}),
    changes: {
      take: () => state.takeChanged().map((order) => structuredClone(order)),
      announce: (orders) => {
        for (const order of orders) void announce('orders/updated', order);
      },
    },
  });

  app.post('/admin/oauth/access_token', async (request, reply) => {
    const body = tokenRequestSchema.safeParse(request.body);
    const accepted =
      body.success &&
      options.clientId !== undefined &&
      body.data.client_id === options.clientId &&
      body.data.client_secret === options.clientSecret;
    if (!accepted) {
      return reply
        .code(400)
        .send({ error: 'invalid_client', error_description: 'Client authentication failed.' });
    }
    return { ...tokens.issue(), scope: state.app.accessScopes.join(',') };
  });

  controlRoutes(app, store);

  const address = await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  store.url = new URL(address).origin;
  return store;
}
