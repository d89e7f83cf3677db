import type { FastifyInstance } from 'fastify';
import type { SandboxCore } from './core.js';
import { errorBody, VALIDATION_FAILED } from './errors.js';
import { checkListQuery } from './list-query.js';
import { retryAfterSeconds } from './rate-limit.js';
import { accountOf } from './request-context.js';
import { checkShipment } from './shipment-rules.js';
import { checkTokenRequest } from './token-request.js';
import { createResponse, listItem, tokenRecord, trackingRecord } from './views.js';

export const API_PREFIX = '/api/v1';

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
    const checked = checkTokenRequest(body);
    if (!checked.ok) return reply.code(422).send(errorBody(VALIDATION_FAILED, checked.errors));
    const { email, password, name } = checked.request;
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
    // Only the fields the contract names are kept: pricing fields never reach the store.
    const checked = checkShipment(body);
    if (!checked.ok) return reply.code(422).send(errorBody(VALIDATION_FAILED, checked.errors));
    const { shipment, created } = core.create(account.email, checked.shipment);
    // The fault strikes after the shipment is stored, as a real crash mid-response would.
    if (core.faults.takeCreateFailure()) {
      return reply.code(500).send(errorBody('Server Error'));
    }
    return reply.code(created ? 201 : 200).send(createResponse(shipment));
  });

  app.get<{ Params: { reference: string } }>('/shipments/:reference', async (request, reply) => {
    const shipment = core.shipments.find(accountOf(request).email, request.params.reference);
    if (!shipment) return reply.code(404).send(errorBody('Shipment not found.'));
    return reply.code(200).send(trackingRecord(shipment, core.historyOrder));
  });

  app.get('/shipments', async (request, reply) => {
    const checked = checkListQuery(request.query, (status) => core.statuses.has(status));
    if (!checked.ok) return reply.code(422).send(errorBody(VALIDATION_FAILED, checked.errors));
    const { status, createdAfter, perPage: per_page, page } = checked.query;
    const matching = core.shipments.list(accountOf(request).email, {
      status,
      createdAtOrAfter: createdAfter,
    });
    const start = (page - 1) * per_page;
    return reply.code(200).send({
      data: matching.slice(start, start + per_page).map(listItem),
      meta: { page, per_page, total: matching.length },
    });
  });
}
