import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../../config/index.js';
import type { Logger } from '../log.js';
import type { ConnectorMetrics } from '../metrics/registry.js';
import { tokenRefusedSince } from '../queue/partner-auth.js';
import { StoreHealth } from '../records/store-health.js';
import { buildServer } from '../server/app.js';
import { createWebhookVerifier } from '../store/webhooks.js';
import { buildPartnerBudget } from './budget.js';
import { registerSharedMetrics } from './metrics.js';
import { buildOrderLookup, lazyFindOrderByName } from './order-lookup.js';
import type { SharedParts } from './parts.js';

/**
 * The HTTP server: webhook intake, health, /metrics and Bull Board. Only the process or thread
 * that serves HTTP loads this module (and with it Fastify and Bull Board): see `startService`.
 */
export async function startHttpSide(
  config: Config,
  options: {
    parts: SharedParts;
    /** The fail-fast connection of the request paths: a Redis that is down means 503 at once. */
    redis: Redis;
    metrics: ConnectorMetrics;
    logger: Logger;
  },
): Promise<{ server: FastifyInstance; url: string }> {
  const { parts, redis, metrics, logger } = options;
  const prefix = parts.prefix;
  const budget = buildPartnerBudget(config.partner, redis);
  registerSharedMetrics(metrics, {
    parts,
    budget,
    limit: config.partner.rateLimit,
    tokenRefusedSince: () => tokenRefusedSince(redis, prefix),
  });
  const server = await buildServer({
    verify: createWebhookVerifier({
      webhookSecret: config.shopify.webhookSecret,
      shop: config.shopify.shop,
    }),
    redis,
    prefix,
    counters: parts.counters,
    acceptDelivery: (event, deliveryId) => parts.acceptDelivery(event, deliveryId, redis),
    budget,
    storeHealth: new StoreHealth(redis, prefix),
    logger,
    // Every queue of the job catalog, its job schedulers included.
    board: {
      queues: Object.values(parts.queues),
      login: config.admin,
      shop: config.shopify.shop,
      lookup: buildOrderLookup({
        redis,
        prefix,
        queues: Object.values(parts.queues),
        findOrderByName: lazyFindOrderByName(config.shopify, logger),
      }),
    },
    metrics: { render: () => metrics.render(), token: config.metrics.token },
  });
  const url = await server.listen({ port: config.server.port, host: config.server.host });
  logger.info({ url }, 'listening for Shopify webhooks');
  return { server, url };
}
