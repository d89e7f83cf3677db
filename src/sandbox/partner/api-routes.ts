import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { fieldErrorsFrom, shipmentRequestSchema } from '../../partner/schemas.js';
import type { SandboxCore } from './core.js';
import { errorBody, VALIDATION_FAILED } from './errors.js';
import { listQuerySchema } from './list-query.js';
import { retryAfterSeconds } from './rate-limit.js';
import { accountOf } from './request-context.js';
import { createResponse, listItem, tokenRecord, trackingRecord } from './views.js';

export const API_PREFIX = '/api/v1';

const tokenRequestSchema = z.object({
  email: z
    .string({ error: 'The email field is required.' })
    .trim()
    .min(1, 'The email field is required.'),
  password: z
    .string({ error: 'The password field is required.' })
    .min(1, 'The password field is required.'),
  // Whether `name` is required is not stated; accept it missing, check it when present.
  name: z
    .string('The name must be a string.')
    .max(255, 'The name may not be greater than 255 characters.')
    .optional(),
});

/** A JSON body that is not an object cannot be a request; no body at all is an empty one. */
function objectBody(body: unknown): Record<string, unknown> | undefined {
  if (body === undefined || body === null) return {};
  if (typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  return undefined;
}

/** The Partner Shipment API under /api/v1, as the contract describes it. */
export function registerApiRoutes(app: FastifyInstance, core: SandboxCore): void {
  app.post('/token', async (request, reply) => {
    const body = objectBody(request.body);
    if (!body) return reply.code(400).send(errorBody('The request body must be a JSON object.'));
    const parsed = tokenRequestSchema.safeParse(body);
    if (!parsed.success) {
      return reply.code(422).send(errorBody(VALIDATION_FAILED, fieldErrorsFrom(parsed.error)));
    }
    const { email, password, name } = parsed.data;
    const now = Date.now();
    const lockedForMs = core.loginThrottle.lockedForMs(email, now);
    if (lockedForMs > 0) {
      return reply
        .code(429)
        .header('retry-after', String(retryAfterSeconds(lockedForMs)))
        .send(errorBody('Too many login attempts. Please try again later.'));
    }
    const account = core.accounts.authenticate(email, password);
    if (!account) {
      core.loginThrottle.recordFailure(email, now);
      return reply.code(401).send(errorBody('These credentials do not match our records.'));
    }
    core.loginThrottle.recordSuccess(email);
    const issued = core.accounts.issue(account.email, name);
    return reply.code(201).send(tokenRecord(issued, account));
  });

  app.post('/shipments', async (request, reply) => {
    const account = accountOf(request);
    const body = objectBody(request.body);
    if (!body) return reply.code(400).send(errorBody('The request body must be a JSON object.'));
    // The shared schema strips unknown keys: pricing fields never reach the store.
    const parsed = shipmentRequestSchema.safeParse(body);
    if (!parsed.success) {
      return reply.code(422).send(errorBody(VALIDATION_FAILED, fieldErrorsFrom(parsed.error)));
    }
    const { shipment, created } = core.create(account.email, parsed.data);
    // The fault strikes after the shipment is stored, as a real crash mid-response would.
    if (core.faults.takeCreateFailure()) {
      return reply.code(500).send(errorBody('Server Error'));
    }
    return reply.code(created ? 201 : 200).send(createResponse(shipment));
  });

  app.get<{ Params: { reference: string } }>('/shipments/:reference', async (request, reply) => {
    const shipment = core.shipments.find(accountOf(request).email, request.params.reference);
    if (!shipment) return reply.code(404).send(errorBody('Shipment not found.'));
    return reply.code(200).send(trackingRecord(shipment));
  });

  app.get('/shipments', async (request, reply) => {
    const parsed = listQuerySchema.safeParse(request.query ?? {});
    if (!parsed.success) {
      return reply.code(422).send(errorBody(VALIDATION_FAILED, fieldErrorsFrom(parsed.error)));
    }
    const { status, created_after, per_page, page } = parsed.data;
    const matching = core.shipments.list(accountOf(request).email, {
      status,
      createdAtOrAfter: created_after,
    });
    const start = (page - 1) * per_page;
    return reply.code(200).send({
      data: matching.slice(start, start + per_page).map(listItem),
      meta: { page, per_page, total: matching.length },
    });
  });
}
