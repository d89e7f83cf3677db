import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Logger } from '../log.js';
import { BOARD_PATH, type BoardDeps, boardRoutes } from './board.js';
import { type HealthDeps, healthRoutes } from './health-routes.js';
import { METRICS_PATH, type MetricsDeps, metricsRoutes } from './metrics-route.js';
import { type WebhookRouteDeps, webhookRoutes } from './webhook-route.js';

export type ServerDeps = WebhookRouteDeps &
  HealthDeps & {
    logger: Logger;
    /** Bull Board and the order search: what they show, and the login (undefined: not mounted). */
    board:
      | Omit<BoardDeps, 'logger' | 'redis' | 'prefix'>
      | { queues: BoardDeps['queues']; login: undefined };
    /** Prometheus metrics at /metrics (undefined: not served). */
    metrics?: MetricsDeps;
  };

/** The HTTP side of the service: Shopify webhooks, health checks, metrics and Bull Board. */
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
  const { metrics } = deps;
  if (metrics) {
    await app.register(async (scope) => metricsRoutes(scope, metrics));
    if (!metrics.token) {
      deps.logger.info(
        `${METRICS_PATH} is open to anyone who reaches this port; set METRICS_TOKEN to ask Prometheus for a bearer token.`,
      );
    }
  }
  const { board } = deps;
  if (board.login) {
    const { redis, prefix, logger } = deps;
    await app.register(async (scope) =>
      boardRoutes(scope, { ...board, login: board.login, redis, prefix, logger }),
    );
  } else {
    deps.logger.info(
      `Bull Board is not mounted at ${BOARD_PATH}: no admin login is set. Set ADMIN_USER and ADMIN_PASSWORD (and ADMIN_READ_ONLY=true for a board without retries) to enable it.`,
    );
  }
  return app;
}
