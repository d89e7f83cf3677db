import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { tokenRefusedSince } from '../queue/partner-auth.js';
import type { PartnerBudget } from '../queue/partner-budget.js';
import type { StoreHealth } from '../records/store-health.js';

export interface HealthDeps {
  /** A fail-fast connection: health answers at once when Redis is down. */
  redis: Redis;
  prefix: string;
  /** The partner token's request budget, read for /status. */
  budget: Pick<PartnerBudget, 'blockedForMs' | 'stats'>;
  /** What the workers last saw of their access to Shopify. */
  storeHealth: Pick<StoreHealth, 'read'>;
}

/**
 * /healthz: the process answers (liveness). /readyz: it can take webhooks, which needs Redis and
 * nothing else: a refused partner token must not make a load balancer turn Shopify away, or
 * Shopify would in the end drop the subscriptions. /status: what the connector's work depends
 * on beyond that, with reasons: the partner token and rate limit, and access to Shopify.
 */
export async function healthRoutes(app: FastifyInstance, deps: HealthDeps): Promise<void> {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    const problems = (await redisAnswers(deps.redis)) ? [] : ['Redis does not answer.'];
    return reply
      .code(problems.length === 0 ? 200 : 503)
      .send({ status: problems.length === 0 ? 'ready' : 'unavailable', problems });
  });

  app.get('/status', async (_request, reply) => {
    if (!(await redisAnswers(deps.redis))) {
      return reply.code(503).send({
        intake: { ready: false, problems: ['Redis does not answer.'] },
        partner: { status: 'unknown', problems: ['Redis does not answer, so nothing is known.'] },
        shopify: { status: 'unknown', problems: ['Redis does not answer, so nothing is known.'] },
      });
    }
    const [refusedSince, rateLimitedForMs, budget, shopify] = await Promise.all([
      tokenRefusedSince(deps.redis, deps.prefix),
      deps.budget.blockedForMs(),
      deps.budget.stats(),
      deps.storeHealth.read(),
    ]);
    const problems: string[] = [];
    if (refusedSince) {
      problems.push(
        `The partner API refused the token (401) at ${refusedSince}; shipment queues are paused until a valid PARTNER_API_TOKEN works.`,
      );
    }
    if (rateLimitedForMs > 0) {
      problems.push(
        `The partner API rate-limited the token (429): no request is sent for another ${Math.ceil(rateLimitedForMs / 1000)} s.`,
      );
    }
    const status = refusedSince ? 'token_refused' : rateLimitedForMs > 0 ? 'rate_limited' : 'ok';
    return reply.send({
      intake: { ready: true, problems: [] },
      partner: {
        status,
        problems,
        tokenRefusedSince: refusedSince,
        rateLimitedForMs,
        budget,
      },
      shopify: {
        status: shopify.status,
        since: shopify.since,
        problems: shopify.reason ? [shopify.reason] : [],
      },
    });
  });
}

async function redisAnswers(redis: Redis): Promise<boolean> {
  try {
    await redis.ping();
    return true;
  } catch {
    return false;
  }
}
