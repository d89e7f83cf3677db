import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import type { Logger } from '../../log.js';
import { API_PREFIX, registerApiRoutes } from './api-routes.js';
import { CONTROL_PREFIX, registerControlRoutes } from './control-routes.js';
import type { SandboxCore } from './core.js';
import { errorBody, SandboxError } from './errors.js';
import { MALFORMED_BODIES } from './faults.js';
import { CONTRACT_LIMITS } from './limits.js';
import { retryAfterSeconds } from './rate-limit.js';
import { contextOf, setContext } from './request-context.js';
import { bearerToken } from './request-log.js';

const isApiUrl = (url: string) =>
  url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`);
const pathOf = (url: string) => url.split('?')[0] ?? url;

/** Maps Fastify's own failures (body limit, bad JSON, media type) to the API's Error body. */
function errorResponse(error: FastifyError): { status: number; message: string } {
  if (error instanceof SandboxError) return { status: error.statusCode, message: error.message };
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, message: 'The request body may not be larger than 2 MB.' };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, message: 'The request body is not valid JSON.' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, message: 'Send request bodies as application/json.' };
  }
  const status = error.statusCode ?? 500;
  return status >= 500 ? { status, message: 'Server Error' } : { status, message: error.message };
}

/**
 * The HTTP face of the sandbox: authentication, rate limit, latency, faults and the request log
 * as hooks around the API routes, and the control routes beside them.
 */
export function buildApp(core: SandboxCore, logger: Logger | false): FastifyInstance {
  const app = Fastify({
    bodyLimit: CONTRACT_LIMITS.bodyBytesMax,
    // pino's Logger is a FastifyBaseLogger; only the generic parameters disagree.
    loggerInstance: logger ? (logger as FastifyBaseLogger) : undefined,
  });

  // JSON only; an empty body is treated as no body, so it fails validation like `{}` would.
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, undefined);
    else parseJson(request, body as string, done);
  });

  app.addHook('onRequest', async (request, reply) => {
    const context = {
      arrivedAt: Date.now(),
      token: bearerToken(request.headers.authorization),
    };
    setContext(request, context);
    if (!isApiUrl(request.url)) return;
    if (request.method === 'POST' && pathOf(request.url) === `${API_PREFIX}/token`) return;

    const account = context.token ? core.accounts.accountForToken(context.token) : undefined;
    if (!account || !context.token) {
      return reply.code(401).send(errorBody('Unauthenticated.'));
    }
    setContext(request, { ...context, account });
    const verdict = core.limiter.take(context.token, context.arrivedAt);
    if (!verdict.admitted) {
      return reply
        .code(429)
        .header('retry-after', String(retryAfterSeconds(verdict.retryAfterMs)))
        .send(errorBody('Too Many Attempts.'));
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (!isApiUrl(request.url)) return payload;
    if (core.faults.latencyMs > 0) await sleep(core.faults.latencyMs);
    const malformed = core.faults.takeMalformed();
    if (!malformed) return payload;
    reply.header('content-type', 'application/json; charset=utf-8');
    return MALFORMED_BODIES[malformed];
  });

  app.addHook('onResponse', async (request, reply) => {
    if (!isApiUrl(request.url)) return;
    const context = contextOf(request);
    core.requests.push({
      at: context?.arrivedAt ?? Date.now(),
      token: context?.token ?? null,
      method: request.method,
      path: pathOf(request.url),
      status: reply.statusCode,
      ...(reply.statusCode === 429 ? { retryAfterS: Number(reply.getHeader('retry-after')) } : {}),
    });
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, message } = errorResponse(error);
    if (status >= 500) request.log.error({ err: error }, 'sandbox request failed');
    return reply.code(status).send(errorBody(message));
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(errorBody('Not found.')));

  app.register(async (api) => registerApiRoutes(api, core), { prefix: API_PREFIX });
  app.register(async (control) => registerControlRoutes(control, core), {
    prefix: CONTROL_PREFIX,
  });
  return app;
}
