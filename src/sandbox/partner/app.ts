import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Logger } from '../../log.js';
import { isApiUrl, MAX_TARGET_LENGTH, pathOf, refuseAtTheDoor } from './admission.js';
import { API_PREFIX, registerApiRoutes } from './api-routes.js';
import { answerClientError } from './client-errors.js';
import { CONTROL_PREFIX, registerControlRoutes } from './control-routes.js';
import type { SandboxCore } from './core.js';
import { errorBody, SandboxError } from './errors.js';
import { malformAnswer } from './faults.js';
import { CONTRACT_LIMITS } from './limits.js';
import { contextOf } from './request-context.js';

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

function logRequest(core: SandboxCore, request: FastifyRequest, reply: FastifyReply): void {
  if (!isApiUrl(request.url)) return;
  const context = contextOf(request);
  core.requests.push({
    at: context?.arrivedAt ?? Date.now(),
    token: context?.token ?? null,
    method: request.method,
    path: pathOf(request.url),
    query: request.url.split('?')[1] ?? '',
    status: reply.statusCode,
    ...(reply.statusCode === 429 ? { retryAfterS: Number(reply.getHeader('retry-after')) } : {}),
  });
}

/**
 * Malformed escapes or an oversized path segment fail in the router, before any hook runs: the
 * token is checked here too, so such a request without one still gets 401.
 */
function answerRouterError(
  core: SandboxCore,
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (!refuseAtTheDoor(core, request, reply)) {
    if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      reply
        .code(414)
        .send(errorBody(`The request URL may not be longer than ${MAX_TARGET_LENGTH} characters.`));
    } else {
      reply.code(400).send(errorBody('The request URL is not valid.'));
    }
  }
  logRequest(core, request, reply);
}

/**
 * The HTTP face of the sandbox: authentication, rate limit, latency, faults and the request log
 * as hooks around the API routes, and the control routes beside them.
 */
export function buildApp(core: SandboxCore, logger: Logger | false): FastifyInstance {
  const app = Fastify({
    bodyLimit: CONTRACT_LIMITS.bodyBytesMax,
    // Fastify's default (100) answered 414 to references the contract allows (up to 255).
    routerOptions: { maxParamLength: MAX_TARGET_LENGTH },
    // Malformed escapes or an oversized path segment fail in the router, before any hook:
    // the token is checked here too, so such a request without one still gets 401.
    frameworkErrors: (error, request, reply) =>
      answerRouterError(core, error, request, reply as unknown as FastifyReply),
    clientErrorHandler: answerClientError,
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
    if (refuseAtTheDoor(core, request, reply)) return reply;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (!isApiUrl(request.url)) return payload;
    if (core.faults.latencyMs > 0) await sleep(core.faults.latencyMs);
    const malformed = core.faults.takeMalformed(request.method, pathOf(request.url));
    if (!malformed) return payload;
    const answer = malformAnswer(malformed, String(payload ?? ''), reply.statusCode);
    reply.code(answer.status).header('content-type', answer.contentType);
    return answer.body;
  });

  app.addHook('onResponse', async (request, reply) => logRequest(core, request, reply));

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
