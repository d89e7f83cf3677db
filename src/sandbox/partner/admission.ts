import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX } from './api-routes.js';
import { CONTROL_PREFIX } from './control-routes.js';
import type { SandboxCore } from './core.js';
import { errorBody } from './errors.js';
import { retryAfterSeconds } from './rate-limit.js';
import { setContext } from './request-context.js';
import { bearerToken } from './request-log.js';

/**
 * Longest request target served; longer ones answer 414. Far above any real request: a
 * 255-character reference, every character a percent-encoded 4-byte one, is about 3,100.
 */
export const MAX_TARGET_LENGTH = 8192;

const isUnder = (url: string, prefix: string) =>
  url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);
export const isApiUrl = (url: string) => isUnder(url, API_PREFIX);
export const pathOf = (url: string) => url.split('?')[0] ?? url;

/** Only the token exchange and the local control endpoints answer without a bearer token. */
function needsToken(method: string, url: string): boolean {
  if (isUnder(url, CONTROL_PREFIX)) return false;
  return !(method === 'POST' && pathOf(url) === `${API_PREFIX}/token`);
}

/**
 * The checks every request meets before anything else looks at it: the bearer token (401),
 * then the rate limit (429), then the length of the URL (414). Sends the refusal and returns
 * true when the request goes no further.
 */
export function refuseAtTheDoor(
  core: SandboxCore,
  request: FastifyRequest,
  reply: FastifyReply,
): boolean {
  const context = { arrivedAt: Date.now(), token: bearerToken(request.headers.authorization) };
  setContext(request, context);
  if (!needsToken(request.method, request.url)) return false;
  // A refusal here leaves the body unread: close the connection rather than keep it alive.
  const hasBody =
    request.headers['transfer-encoding'] !== undefined ||
    Number(request.headers['content-length'] ?? 0) > 0;
  const refuse = (status: number, message: string) => {
    if (hasBody) reply.header('connection', 'close');
    reply.code(status).send(errorBody(message));
    return true;
  };

  const account = context.token ? core.accounts.accountForToken(context.token) : undefined;
  if (!account || !context.token) return refuse(401, 'Unauthenticated.');
  setContext(request, { ...context, account });
  const verdict = core.limiter.take(context.token, context.arrivedAt);
  if (!verdict.admitted) {
    reply.header('retry-after', String(retryAfterSeconds(verdict.retryAfterMs)));
    return refuse(429, 'Too Many Attempts.');
  }
  if (request.url.length > MAX_TARGET_LENGTH) {
    return refuse(414, `The request URL may not be longer than ${MAX_TARGET_LENGTH} characters.`);
  }
  return false;
}
