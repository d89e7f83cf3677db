import type { FastifyInstance } from 'fastify';

export const METRICS_PATH = '/metrics';

export interface MetricsDeps {
  /** The exposition text of every metric, read now. */
  render(): Promise<{ contentType: string; body: string }>;
}

/**
 * GET /metrics in Prometheus' text format: counts and queue states, never order data. Who may
 * read it is the server's decision (src/server/app.ts): a token, or a listener of its own.
 */
export async function metricsRoutes(app: FastifyInstance, deps: MetricsDeps): Promise<void> {
  app.get(METRICS_PATH, async (_request, reply) => {
    const { contentType, body } = await deps.render();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}
