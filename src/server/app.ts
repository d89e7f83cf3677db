import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Logger } from '../log.js';
import type { ConnectorMetrics } from '../metrics/registry.js';
import { requireBearerToken } from './admin-token.js';
import { BOARD_PATH, type BoardDeps, boardRoutes } from './board.js';
import { type HealthDeps, healthRoutes, statusRoutes } from './health-routes.js';
import { type WebhookRouteDeps, webhookRoutes } from './webhook-route.js';

/**
 * Shopify waits 5 s for an answer. Keep-alive stays above common proxies' 60 s idle timeout, so
 * they never reuse a connection being closed.
 */
export const HTTP_TIMEOUTS = {
  /** Headers and body (else 408 and close). */
  requestMs: 10_000,
  idleMs: 30_000,
  keepAliveMs: 72_000,
  maxRequestsPerConnection: 1_000,
  checkEveryMs: 1_000,
};
export type HttpTimeouts = typeof HTTP_TIMEOUTS;

export type ServerDeps = WebhookRouteDeps &
  HealthDeps & {
    logger: Logger;
    /** Undefined: not mounted. */
    board:
      | Omit<BoardDeps, 'logger' | 'redis' | 'prefix'>
      | { queues: BoardDeps['queues']; login: undefined };
    /** Undefined: not served. Never order data. */
    metrics?: Pick<ConnectorMetrics, 'render'>;
    /** METRICS_TOKEN. */
    adminToken?: string;
    /** 'public': Shopify's webhooks, /healthz and /readyz. */
    surface?: 'all' | 'public' | 'admin';
    timeouts?: HttpTimeouts;
  };

export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const timeouts = deps.timeouts ?? HTTP_TIMEOUTS;
  const surface = deps.surface ?? 'all';
  const app = Fastify({
    loggerInstance: deps.logger.child({ module: 'http' }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    // Behind a proxy the client address is not ours to trust; we log none.
    trustProxy: false,
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    maxRequestsPerSocket: timeouts.maxRequestsPerConnection,
    // Node refuses a headers timeout longer than the request timeout.
    http: {
      requestTimeout: timeouts.requestMs,
      headersTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeouts.checkEveryMs,
    },
  });
  if (surface !== 'admin') {
    await app.register(async (scope) => webhookRoutes(scope, deps));
    await app.register(async (scope) => healthRoutes(scope, deps));
  }
  if (surface === 'public') return app;
  const { adminToken, metrics, board, redis, prefix, logger } = deps;
  await app.register(async (scope) => {
    if (adminToken) requireBearerToken(scope, adminToken);
    await statusRoutes(scope, deps);
    if (!metrics) return;
    scope.get('/metrics', async (_request, reply) => {
      const { contentType, body } = await metrics.render();
      return reply.headers({ 'content-type': contentType, 'cache-control': 'no-store' }).send(body);
    });
  });
  if (board.login) {
    await app.register(async (scope) => boardRoutes(scope, { ...board, redis, prefix, logger }));
  } else {
    logger.info(
      `Bull Board is not mounted at ${BOARD_PATH}: no admin login is set. Set ADMIN_USER and ADMIN_PASSWORD (and ADMIN_READ_ONLY=true for a board without retries) to enable it.`,
    );
  }
  return app;
}
