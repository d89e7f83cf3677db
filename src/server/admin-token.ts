import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** Register it in the scope of /metrics and /status only. */
export function requireBearerToken(app: FastifyInstance, token: string): void {
  const expected = digest(`Bearer ${token}`);
  app.addHook('onRequest', async (request, reply) => {
    if (timingSafeEqual(expected, digest(request.headers.authorization ?? ''))) return;
    return reply
      .code(401)
      .header('www-authenticate', 'Bearer realm="connector"')
      .send({ error: 'a valid bearer token (METRICS_TOKEN) is required' });
  });
}

/** So timingSafeEqual takes the same time whatever was sent. */
export function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
