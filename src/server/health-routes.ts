import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { PartnerAuthGuard } from '../queue/partner-auth.js';

export interface HealthDeps {
  redis: Redis;
  authGuard: PartnerAuthGuard;
}

/**
 * /healthz: the process answers (liveness). /readyz: it can do its work: Redis answers and the
 * partner accepts the token. A refused token makes the service not ready until it works again.
 */
export async function healthRoutes(app: FastifyInstance, deps: HealthDeps): Promise<void> {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    const problems: string[] = [];
    let refusedSince: string | null = null;
    try {
      await deps.redis.ping();
      refusedSince = await deps.authGuard.refusedSince();
    } catch {
      problems.push('Redis does not answer.');
    }
    if (refusedSince) {
      problems.push(
        `The partner API refused the token (401) at ${refusedSince}; shipment and sync queues are paused until a valid PARTNER_API_TOKEN works.`,
      );
    }
    return reply
      .code(problems.length === 0 ? 200 : 503)
      .send({ status: problems.length === 0 ? 'ready' : 'unavailable', problems });
  });
}
