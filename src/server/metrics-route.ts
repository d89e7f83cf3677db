import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export const METRICS_PATH = '/metrics';

export interface MetricsDeps {
  /** The exposition text of every metric, read now. */
  render(): Promise<{ contentType: string; body: string }>;
  /** The bearer token a scrape must send; undefined: /metrics is open. */
  token: string | undefined;
}

/**
 * GET /metrics in Prometheus' text format. Open unless a token is configured: it shows counts
 * and queue states, never order data, but a public webhook port would show them to anyone.
 */
export async function metricsRoutes(app: FastifyInstance, deps: MetricsDeps): Promise<void> {
  const expected = deps.token === undefined ? undefined : digest(`Bearer ${deps.token}`);
  app.get(METRICS_PATH, async (request, reply) => {
    if (expected && !timingSafeEqual(expected, digest(request.headers.authorization ?? ''))) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ error: 'a valid bearer token (METRICS_TOKEN) is required' });
    }
    const { contentType, body } = await deps.render();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}

/** Fixed-length digests, so comparing them takes the same time whatever was sent. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
