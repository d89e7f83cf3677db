import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { parseOrderId } from '../domain/order.js';
import type { OrderEvent } from '../domain/order-lifecycle.js';
import type { OrderBodyParts } from '../domain/shipment-fingerprint.js';
import type { Logger } from '../log.js';
import type { Counters } from '../metrics/counters.js';
import { withTimeout } from '../queue/timeout.js';
import {
  countHmacFailure,
  endHmacFailureStreak,
  HMAC_FAILURE_STREAK_ALERT,
  hmacStreakMessage,
} from '../records/hmac-failure-streak.js';
import type { VerifyWebhook } from '../store/webhooks.js';

export const WEBHOOK_PATH = '/webhooks/shopify';

export const ORDER_TOPICS = ['orders/create', 'orders/paid', 'orders/updated', 'orders/cancelled'];

/** Shopify allows 5 s; answer well before, so a slow Redis means a retry rather than a timeout. */
const DEFAULT_ANSWER_WITHIN_MS = 3_000;
const WEBHOOK_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

const orderWebhookBody = z.object({
  id: z.union([z.number(), z.string()]).optional(),
  admin_graphql_api_id: z.string().optional(),
  cancelled_at: z.string().nullable().optional(),
  name: z.string().max(40).optional().catch(undefined),
  // What an edit of the order could change (OrderBodyParts).
  updated_at: z.string().nullable().optional().catch(undefined),
  phone: z.string().nullable().optional().catch(undefined),
  tags: z.string().nullable().optional().catch(undefined),
  shipping_address: z.record(z.string(), z.unknown()).nullable().optional().catch(undefined),
  line_items: z.array(z.record(z.string(), z.unknown())).optional().catch(undefined),
});

export interface WebhookRouteDeps {
  verify: VerifyWebhook;
  /** Shopify delivers at least once. 'duplicate': id seen before; 'repeated': body seen before. */
  acceptWebhook(event: OrderEvent, delivery: WebhookDelivery): Promise<string>;
  /** Fail-fast. */
  redis: Redis;
  prefix: string;
  counters: Counters;
  logger: Logger;
  answerWithinMs?: number;
}

export interface WebhookDelivery {
  /** The same for every retry. */
  id: string;
  /** The HMAC does not cover the id headers: a captured body could come again under fresh ids. */
  bodyHash: string;
  /** Absent when the body lists no lines. */
  order?: OrderBodyParts;
}

/** Each id seen costs a key in Redis; Shopify's are UUIDs. */
const MAX_DELIVERY_ID_LENGTH = 128;

class TimeoutError extends Error {}

export async function webhookRoutes(app: FastifyInstance, deps: WebhookRouteDeps): Promise<void> {
  // The HMAC covers the exact bytes received.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES },
    (_req, body, done) => done(null, body),
  );

  app.post(WEBHOOK_PATH, async (request, reply) => {
    const rawBody = typeof request.body === 'string' ? request.body : '';
    const verification = await deps.verify(rawBody, request.headers);
    if (!verification.valid) {
      deps.logger.warn({ reason: verification.reason }, 'webhook rejected');
      void deps.counters.increment('webhooks_rejected').catch(() => {});
      if (verification.reason === 'invalid_hmac') void noteHmacFailure(deps);
      return reply.code(401).send({ error: 'invalid webhook signature' });
    }
    const { topic } = verification;
    const deliveryId = verification.eventId ?? verification.webhookId;
    if ([verification.webhookId, deliveryId].some((id) => id.length > MAX_DELIVERY_ID_LENGTH)) {
      deps.logger.warn({ reason: 'id_too_long', topic }, 'webhook rejected');
      void deps.counters.increment('webhooks_rejected').catch(() => {});
      return reply.code(400).send({
        error: `X-Shopify-Webhook-Id and X-Shopify-Event-Id must be at most ${MAX_DELIVERY_ID_LENGTH} characters`,
      });
    }
    const log = deps.logger.child({ topic, webhookId: verification.webhookId });
    void endHmacFailureStreak(deps.redis, deps.prefix).catch(() => {});

    if (!ORDER_TOPICS.includes(topic)) {
      log.info('webhook topic not handled; acknowledged');
      return reply.code(200).send({ result: 'ignored' });
    }

    let body: z.infer<typeof orderWebhookBody>;
    try {
      body = orderWebhookBody.parse(JSON.parse(rawBody));
    } catch {
      return reply.code(400).send({ error: 'body is not an order in JSON' });
    }
    const orderId = orderIdOf(body);
    if (!orderId) return reply.code(400).send({ error: 'body carries no order id' });

    try {
      const result = await withTimeout(
        deps.acceptWebhook(
          {
            orderId,
            source: topic,
            cancelled: Boolean(body.cancelled_at),
            ...(body.name ? { orderName: body.name } : {}),
          },
          {
            id: deliveryId,
            bodyHash: createHash('sha256').update(`${topic}\n`).update(rawBody).digest('base64url'),
            ...(body.line_items
              ? {
                  order: {
                    updatedAt: body.updated_at,
                    phone: body.phone,
                    tags: body.tags,
                    shippingAddress: body.shipping_address,
                    lineItems: body.line_items,
                  },
                }
              : {}),
          },
        ),
        deps.answerWithinMs ?? DEFAULT_ANSWER_WITHIN_MS,
        () => new TimeoutError('timed out'),
      );
      if (result === 'repeated') {
        log.warn(
          { orderId, result },
          'webhook repeats the topic and body of an earlier delivery under another id: nothing queued',
        );
      } else {
        log.info({ orderId, result }, 'webhook accepted');
      }
      return reply.code(200).send({ result });
    } catch (error) {
      log.error(
        { orderId, err: error instanceof TimeoutError ? undefined : error },
        'webhook could not be queued; Shopify will deliver it again',
      );
      return reply.code(503).send({ error: 'could not queue the order; retry later' });
    }
  });
}

async function noteHmacFailure(deps: WebhookRouteDeps): Promise<void> {
  try {
    const streak = await countHmacFailure(deps.redis, deps.prefix);
    if (streak === HMAC_FAILURE_STREAK_ALERT) deps.logger.error(hmacStreakMessage(streak));
  } catch {
    // The answer is 401 all the same.
  }
}

function orderIdOf(body: z.infer<typeof orderWebhookBody>): string | null {
  // The gid is a string; the numeric id may exceed what a JSON number holds exactly.
  const id = body.admin_graphql_api_id || body.id;
  // A negative or fractional number is no order id: 400, not a 503 Shopify would retry for days.
  if (id === undefined || (typeof id === 'number' && !Number.isSafeInteger(id))) return null;
  return parseOrderId(id);
}
