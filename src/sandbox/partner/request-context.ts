import type { FastifyRequest } from 'fastify';
import type { SandboxAccount } from './accounts.js';

/** What the sandbox learned about a request before its handler ran. */
export interface RequestContext {
  arrivedAt: number;
  token: string | null;
  /** Set once the bearer token was accepted. */
  account?: SandboxAccount;
}

// A WeakMap rather than a Fastify decoration: no global type augmentation leaks into other apps.
const contexts = new WeakMap<FastifyRequest, RequestContext>();

export function setContext(request: FastifyRequest, context: RequestContext): void {
  contexts.set(request, context);
}

export function contextOf(request: FastifyRequest): RequestContext | undefined {
  return contexts.get(request);
}

/** The authenticated account; only called on routes behind the bearer check. */
export function accountOf(request: FastifyRequest): SandboxAccount {
  const account = contexts.get(request)?.account;
  if (!account) throw new Error('route reached without an authenticated account');
  return account;
}
