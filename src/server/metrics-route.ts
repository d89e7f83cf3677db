import type { FastifyInstance } from 'fastify';

const METRICS_PATH = '/metrics';

export interface MetricsDeps {
  render(): Promise<{ contentType: string; body: string }>;
}

/** Never order data. Who may read it is decided in src/server/app.ts. */
export async function metricsRoutes(app: FastifyInstance, deps: MetricsDeps): Promise<void> {
  app.get(METRICS_PATH, async (_request, reply) => {
    const { contentType, body } = await deps.render();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}
