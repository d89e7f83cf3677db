import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Logger } from '../log.js';
import { type HealthDeps, healthRoutes } from './health-routes.js';
import { type WebhookRouteDeps, webhookRoutes } from './webhook-route.js';

export type ServerDeps = WebhookRouteDeps & HealthDeps & { logger: Logger };

/** The HTTP side of the service: Shopify webhooks and health checks. */
export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger.child({ module: 'http' }) as FastifyBaseLogger,
    // (The top-level `disableRequestLogging` is deprecated in Fastify 5.)
    logController: new LogController({ disableRequestLogging: true }),
    // Behind a proxy the client address is not ours to trust; we log none.
    trustProxy: false,
  });
  await app.register(async (scope) => webhookRoutes(scope, deps));
  await app.register(async (scope) => healthRoutes(scope, deps));
  return app;
}
