import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { pauseMessage, readPartnerPause } from '../partner/auth-guard.js';
import type { PartnerBudget } from '../partner/budget.js';
import { evictionPauseMessage, readEvictionPause } from '../queue/redis-durability.js';
import {
  HMAC_FAILURE_STREAK_ALERT,
  hmacFailureStreak,
  hmacStreakMessage,
} from '../records/hmac-failure-streak.js';
import type { StoreHealth } from '../records/store-health.js';

export interface HealthDeps {
  /** Fail-fast. */
  redis: Redis;
  prefix: string;
  budget: Pick<PartnerBudget, 'blockedForMs' | 'stats'>;
  storeHealth: Pick<StoreHealth, 'read'>;
}

/** /readyz needs Redis only: Shopify drops subscriptions a load balancer keeps turning away. */
export async function healthRoutes(app: FastifyInstance, deps: Pick<HealthDeps, 'redis'>) {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    if (await redisAnswers(deps.redis)) return { status: 'ready', problems: [] };
    return reply.code(503).send({ status: 'unavailable', problems: ['Redis does not answer.'] });
  });
}

export async function statusRoutes(app: FastifyInstance, deps: HealthDeps): Promise<void> {
  app.get('/status/partner', async (_request, reply) => {
    if (!(await redisAnswers(deps.redis))) {
      return reply.code(503).send({ status: 'unknown', problems: ['Redis does not answer.'] });
    }
    const pause = await readPartnerPause(deps.redis, deps.prefix);
    if (!pause) return reply.send({ status: 'ok', problems: [] });
    return reply
      .code(503)
      .send({ status: pause.reason, problems: [sentence(pauseMessage(pause))] });
  });

  app.get('/status', async (_request, reply) => {
    if (!(await redisAnswers(deps.redis))) {
      return reply.code(503).send({
        intake: { ready: false, problems: ['Redis does not answer.'] },
        partner: { status: 'unknown', problems: ['Redis does not answer, so nothing is known.'] },
        shopify: { status: 'unknown', problems: ['Redis does not answer, so nothing is known.'] },
      });
    }
    const [pause, rateLimitedForMs, budget, shopify, hmacStreak, evictionPause] = await Promise.all(
      [
        readPartnerPause(deps.redis, deps.prefix),
        deps.budget.blockedForMs(),
        deps.budget.stats(),
        deps.storeHealth.read(),
        hmacFailureStreak(deps.redis, deps.prefix),
        readEvictionPause(deps.redis, deps.prefix),
      ],
    );
    const problems = pause ? [sentence(pauseMessage(pause))] : [];
    if (rateLimitedForMs > 0) {
      problems.push(
        `The partner API rate-limited the token (429): no request is sent for another ${Math.ceil(rateLimitedForMs / 1000)} s.`,
      );
    }
    return reply.send({
      intake: { ready: true, problems: [] },
      partner: {
        status: pause ? pause.reason : rateLimitedForMs > 0 ? 'rate_limited' : 'ok',
        problems,
        tokenRefusedSince: pause?.reason === 'token_refused' ? pause.since : null,
        pausedSince: pause?.since ?? null,
        rateLimitedForMs,
        budget,
      },
      shopify: {
        status: shopify.status,
        since: shopify.since,
        problems: shopify.reason ? [shopify.reason] : [],
      },
      webhooks: {
        failedVerificationStreak: hmacStreak,
        problems: hmacStreak >= HMAC_FAILURE_STREAK_ALERT ? [hmacStreakMessage(hmacStreak)] : [],
      },
      workers: evictionPause
        ? {
            status: 'redis_evicts',
            pausedSince: evictionPause.since,
            problems: [sentence(evictionPauseMessage(evictionPause))],
          }
        : { status: 'ok', pausedSince: null, problems: [] },
    });
  });
}

function redisAnswers(redis: Redis): Promise<boolean> {
  return redis.ping().then(
    () => true,
    () => false,
  );
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
