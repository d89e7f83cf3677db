import Fastify, { type FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { createLogger, type Logger } from '../../log.js';
import { controlRoutes } from './control-routes.js';
import type { FakeStore, WebhookChoice } from './fake-store.js';
import { fixtureOrders } from './fixtures/index.js';
import { type FakeGraphqlRequest, graphqlRoute } from './graphql-route.js';
import type { FakeOrder, FakeOrderInput } from './model.js';
import { createRootValue } from './resolvers.js';
import { FakeStoreState } from './state.js';
import { FakeTokens } from './tokens.js';
import { TrafficControl } from './traffic.js';
import { deliverWebhook, orderWebhookPayload } from './webhooks.js';

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
  /** Seed orders; the bundled Danish fixtures when omitted. */
  orders?: FakeOrderInput[];
  logger?: Logger;
  now?: () => Date;
}

const tokenRequestSchema = z.object({
  client_id: z.string(),
  client_secret: z.string(),
  grant_type: z.literal('client_credentials'),
});

/** A local stand-in for one Shopify store's Admin API, for demos and end-to-end tests. */
export async function startFakeStore(options: FakeStoreOptions): Promise<FakeStore> {
  const apiVersion = options.apiVersion ?? '2026-07';
  const logger = (options.logger ?? createLogger({ level: 'silent' })).child({
    module: 'fake-store',
  });
  const state = new FakeStoreState(options.now ?? (() => new Date()));
  for (const order of options.orders ?? fixtureOrders()) state.createOrder(order);
  const tokens = new FakeTokens(options.accessToken, options.tokenTtlSeconds ?? 86_399);
  const traffic = new TrafficControl();
  const requests: FakeGraphqlRequest[] = [];

  async function announce(topic: string, order: FakeOrder, choice: WebhookChoice = {}) {
    const url = choice.webhookUrl ?? options.webhookUrl;
    if (!url || choice.sendWebhook === false) return undefined;
    const delivery = await deliverWebhook({
      url,
      topic,
      shop: options.shop,
      secret: options.webhookSecret,
      apiVersion,
      payload: orderWebhookPayload(order),
    });
    logger.info({ topic, orderId: order.id, status: delivery.status }, 'sent webhook');
    return delivery;
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
    requests,
    get tokenRequests() {
      return tokens.issuedCount;
    },
    throttleNext: (count, opts) => traffic.throttleNext(count, opts),
    rateLimitNext: (count, opts) => traffic.rateLimitNext(count, opts),
    revokeTokens: () => tokens.revokeIssued(),
    close: () => app.close(),
  };

  graphqlRoute(app, { rootValue: createRootValue(state, options.shop), tokens, traffic, requests });

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
    return { ...tokens.issue(), scope: 'read_orders,write_orders,write_fulfillments' };
  });

  controlRoutes(app, store);

  const address = await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  store.url = new URL(address).origin;
  return store;
}
