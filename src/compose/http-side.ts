import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../../config/index.js';
import type { Logger } from '../log.js';
import type { ConnectorMetrics } from '../metrics/registry.js';
import { tokenRefusedSince } from '../partner/auth-guard.js';
import { StoreHealth } from '../records/store-health.js';
import { buildServer, type ServerDeps } from '../server/app.js';
import { createWebhookVerifier } from '../store/webhooks.js';
import { buildPartnerBudget } from './budget.js';
import { registerSharedMetrics } from './metrics.js';
import { buildOrderLookup, lazyFindOrderByName } from './order-lookup.js';
import type { SharedParts } from './parts.js';

/** Only the process or thread serving HTTP loads this module, Fastify and Bull Board. */
export async function startHttpSide(
  config: Config,
  options: {
    parts: SharedParts;
    /** Fail-fast. */
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
    cacheMs: 5_000,
  });
  const deps: ServerDeps = {
    verify: createWebhookVerifier(config.shopify),
    redis,
    prefix,
    counters: parts.counters,
    acceptWebhook: (event, delivery) => parts.acceptWebhook(event, delivery, redis),
    budget,
    storeHealth: new StoreHealth(redis, prefix),
    logger,
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
    metrics: { render: () => metrics.render() },
    adminToken: config.metrics.token,
  };
  const { adminListener } = config;
  const admin = adminListener ? await buildServer({ ...deps, surface: 'admin' }) : undefined;
  const server = await buildServer({ ...deps, surface: admin ? 'public' : 'all' });
  if (admin && adminListener) {
    server.addHook('onClose', async () => admin.close());
    // A copy: Fastify writes into its argument, and the configuration is frozen.
    const adminUrl = await admin.listen({ port: adminListener.port, host: adminListener.host });
    logger.info({ url: adminUrl }, 'listening for /metrics, /status and Bull Board');
  } else if (!config.metrics.token) {
    logger.info(
      `/metrics and /status answer without a token: HOST ${config.server.host} lets only this machine reach them.`,
    );
  }
  try {
    const url = await server.listen({ port: config.server.port, host: config.server.host });
    logger.info({ url }, 'listening for Shopify webhooks');
    return { server, url };
  } catch (error) {
    await admin?.close();
    throw error;
  }
}
