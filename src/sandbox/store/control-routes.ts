import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { FakeStore, WebhookChoice } from './fake-store.js';
import {
  type FakeOrderInput,
  fakeOrderChangeSchema,
  fakeOrderInputSchema,
  holdInput,
  staffFulfilSchema,
} from './model.js';

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
 * orders (optionally announcing them by webhook), act as staff on fulfilments, read orders and
 * the logs, set the app's scopes, plan throttling and lost answers.
 */
export function controlRoutes(
  app: FastifyInstance,
  store: Omit<FakeStore, 'url' | 'shop' | 'close' | 'tokenRequests' | 'revokeTokens'>,
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

  app.post<{ Params: { id: string } }>('/_fake/orders/:id/fulfil', async (request, reply) => {
    if (!store.order(request.params.id)) {
      return reply.code(404).send({ error: `order ${request.params.id} not found` });
    }
    const body = webhookChoiceSchema.extend(staffFulfilSchema.shape).safeParse(request.body ?? {});
    if (!body.success) {
      return reply.code(400).send({ error: 'invalid fulfilment', issues: body.error.issues });
    }
    const { webhookUrl, sendWebhook, ...input } = body.data;
    return refusedAs409(reply, () =>
      store.fulfil(request.params.id, input, webhookChoice({ webhookUrl, sendWebhook })),
    );
  });

  app.post<{ Params: { id: string } }>(
    '/_fake/fulfillment-orders/:id/hold',
    async (request, reply) => {
      const body = webhookChoiceSchema.extend(holdInput.shape).safeParse(request.body ?? {});
      if (!body.success) {
        return reply.code(400).send({ error: 'invalid hold', issues: body.error.issues });
      }
      const { webhookUrl, sendWebhook, ...hold } = body.data;
      return refusedAs409(reply, () =>
        store.holdFulfillmentOrder(
          request.params.id,
          hold,
          webhookChoice({ webhookUrl, sendWebhook }),
        ),
      );
    },
  );

  app.post<{ Params: { id: string } }>(
    '/_fake/fulfillment-orders/:id/release-hold',
    async (request, reply) => {
      const body = webhookChoiceSchema.safeParse(request.body ?? {});
      if (!body.success) {
        return reply.code(400).send({ error: 'invalid', issues: body.error.issues });
      }
      return refusedAs409(reply, () =>
        store.releaseHold(request.params.id, webhookChoice(body.data)),
      );
    },
  );

  app.get('/_fake/locations', async () => store.locations());
  app.get('/_fake/notifications', async () => store.notifications);
  app.get('/_fake/webhook-subscriptions', async () => store.webhookSubscriptions());
  app.get('/_fake/metafield-definitions', async () => store.metafieldDefinitions());
  app.get('/_fake/access-scopes', async () => ({ scopes: store.accessScopes() }));
  app.put('/_fake/access-scopes', async (request, reply) => {
    const body = z.object({ scopes: z.array(z.string().min(1)) }).safeParse(request.body);
    if (!body.success) return reply.code(400).send({ error: 'invalid', issues: body.error.issues });
    store.setAccessScopes(body.data.scopes);
    return { scopes: store.accessScopes() };
  });

  app.post('/_fake/drop-answers', async (request, reply) => {
    const body = z
      .object({
        count: z.number().int().min(0),
        operation: z.string().min(1).optional(),
        how: z.enum(['bad_gateway', 'connection_reset']).optional(),
      })
      .safeParse(request.body);
    if (!body.success) return reply.code(400).send({ error: 'invalid', issues: body.error.issues });
    store.dropNextAnswers(body.data);
    return { ok: true };
  });

  app.post('/_fake/server-error', async (request, reply) => {
    const body = z
      .object({
        count: z.number().int().min(0),
        operation: z.string().min(1).optional(),
        status: z
          .union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)])
          .optional(),
      })
      .safeParse(request.body);
    if (!body.success) return reply.code(400).send({ error: 'invalid', issues: body.error.issues });
    store.serverErrorNext(body.data);
    return { ok: true };
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

/** A staff action the store refuses (nothing to fulfil, not on hold, …) answers 409. */
async function refusedAs409<T>(reply: FastifyReply, action: () => Promise<T>) {
  try {
    return await action();
  } catch (error) {
    return reply.code(409).send({ error: (error as Error).message });
  }
}
