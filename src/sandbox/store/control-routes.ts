import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { FakeStore, WebhookChoice } from './fake-store.js';
import { type FakeOrderInput, fakeOrderChangeSchema, fakeOrderInputSchema } from './model.js';

const webhookChoiceSchema = z.object({
  webhookUrl: z.url().optional(),
  sendWebhook: z.boolean().optional(),
});

/** `order` is checked with fakeOrderInputSchema on its own, so its defaults apply once. */
const createBodySchema = webhookChoiceSchema.extend({
  order: z.record(z.string(), z.unknown()).optional(),
});

const updateBodySchema = webhookChoiceSchema.extend(fakeOrderChangeSchema.shape);

/**
 * /_fake/*: drive the fake store over HTTP for demos (local only, no token): create and change
 * orders (optionally announcing them by webhook), read orders and the mutation log, plan
 * throttling.
 */
export function controlRoutes(
  app: FastifyInstance,
  store: Pick<
    FakeStore,
    | 'createOrder'
    | 'updateOrder'
    | 'order'
    | 'orders'
    | 'mutations'
    | 'requests'
    | 'throttleNext'
    | 'rateLimitNext'
  >,
): void {
  app.get('/_fake/orders', async () => store.orders());

  app.get<{ Params: { id: string } }>('/_fake/orders/:id', async (request, reply) => {
    const order = store.order(request.params.id);
    return order ?? reply.code(404).send({ error: `order ${request.params.id} not found` });
  });

  app.post('/_fake/orders', async (request, reply) => {
    const body = createBodySchema.safeParse(request.body ?? {});
    const order = fakeOrderInputSchema.safeParse(body.data?.order ?? {});
    if (!body.success || !order.success) {
      const issues = body.success ? order.error?.issues : body.error.issues;
      return reply.code(400).send({ error: 'invalid order', issues });
    }
    if (order.data.id !== undefined && store.order(order.data.id)) {
      return reply.code(409).send({ error: `order ${order.data.id} exists already` });
    }
    const created = await store.createOrder(
      (body.data.order ?? {}) as FakeOrderInput,
      webhookChoice(body.data),
    );
    return reply.code(201).send(created);
  });

  app.post<{ Params: { id: string } }>('/_fake/orders/:id', async (request, reply) => {
    if (!store.order(request.params.id)) {
      return reply.code(404).send({ error: `order ${request.params.id} not found` });
    }
    const body = updateBodySchema.safeParse(request.body ?? {});
    if (!body.success) {
      return reply.code(400).send({ error: 'invalid change', issues: body.error.issues });
    }
    const { webhookUrl, sendWebhook, ...change } = body.data;
    return store.updateOrder(request.params.id, change, webhookChoice({ webhookUrl, sendWebhook }));
  });

  app.get('/_fake/mutations', async () => store.mutations);
  app.get('/_fake/requests', async () => store.requests);

  app.post('/_fake/throttle', async (request, reply) => {
    const body = z
      .object({
        count: z.number().int().min(0),
        currentlyAvailable: z.number().min(0).optional(),
        restoreRate: z.number().positive().optional(),
      })
      .safeParse(request.body);
    if (!body.success) return reply.code(400).send({ error: 'invalid', issues: body.error.issues });
    store.throttleNext(body.data.count, body.data);
    return { ok: true };
  });

  app.post('/_fake/rate-limit', async (request, reply) => {
    const body = z
      .object({
        count: z.number().int().min(0),
        retryAfterSeconds: z.number().nonnegative().optional(),
      })
      .safeParse(request.body);
    if (!body.success) return reply.code(400).send({ error: 'invalid', issues: body.error.issues });
    store.rateLimitNext(body.data.count, body.data);
    return { ok: true };
  });
}

function webhookChoice(choice: WebhookChoice): WebhookChoice {
  return {
    ...(choice.webhookUrl ? { webhookUrl: choice.webhookUrl } : {}),
    ...(choice.sendWebhook !== undefined ? { sendWebhook: choice.sendWebhook } : {}),
  };
}
