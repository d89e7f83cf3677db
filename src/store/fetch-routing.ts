// The node adapter must be imported before anything else from the library: it installs the
// library's fetch, which we replace right below.
import '@shopify/shopify-api/adapters/node';
import { AsyncLocalStorage } from 'node:async_hooks';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import { Agent } from 'undici';

/**
 * The library sends every HTTP request through one process-wide "abstract fetch". The node
 * adapter sets it to the `globalThis.fetch` seen at import time, which (a) cannot reach a local
 * fake store, since the library always builds `https://{shop}` URLs, and (b) misses nock when
 * nock is loaded later. We install one dispatcher instead: inside `withFetch(f, …)` the library
 * uses `f` (a client's own fetch, e.g. one that rewrites the origin); anywhere else it uses the
 * `globalThis.fetch` of the moment. AsyncLocalStorage keeps one client's fetch from leaking into
 * another's requests, however their awaits interleave.
 */
export type FetchFunction = typeof fetch;

const currentFetch = new AsyncLocalStorage<FetchFunction>();

setAbstractFetchFunc((input, init) => (currentFetch.getStore() ?? globalThis.fetch)(input, init));

/** Runs `work` so that every library request it makes goes through `fetchFn`. */
export function withFetch<T>(fetchFn: FetchFunction, work: () => Promise<T>): Promise<T> {
  return currentFetch.run(fetchFn, work);
}

/** Longest silence while an answer's headers or its next bytes are awaited (undici's is 300 s). */
export const HTTP_IDLE_TIMEOUT_MS = 60_000;

/** Longest wait for a new connection to open. */
export const HTTP_CONNECT_TIMEOUT_MS = 10_000;

/** The connections the Admin API client keeps open to the store, with its time limits. */
export function storeConnections({
  idleTimeoutMs = HTTP_IDLE_TIMEOUT_MS,
  connectTimeoutMs = HTTP_CONNECT_TIMEOUT_MS,
}: {
  idleTimeoutMs?: number;
  connectTimeoutMs?: number;
} = {}): Agent {
  return new Agent({
    connect: { timeout: connectTimeoutMs },
    headersTimeout: idleTimeoutMs,
    bodyTimeout: idleTimeoutMs,
  });
}

const sharedConnections = storeConnections();

/**
 * The Admin API client's fetch: Node's fetch over `connections`, sending requests for
 * `https://{shop}` to `adminApiUrl` instead when one is set (keeping path and query), and
 * everything else unchanged. `globalThis.fetch` is looked up on each request, so that nock, which
 * replaces it, sees every one in the tests. (undici 7's Agent serves the fetch of Node 22 and of
 * later Nodes alike; undici 8's does not serve Node 22's.)
 */
export function shopFetch(
  shop: string,
  adminApiUrl?: string,
  connections: Agent = sharedConnections,
): FetchFunction {
  const shopOrigin = `https://${shop}`;
  const target = adminApiUrl ? new URL(adminApiUrl) : undefined;
  const basePath = target?.pathname.replace(/\/+$/, '') ?? '';
  // Typed after Node 22's bundled undici, older than the package's types.
  const dispatcher = connections as unknown as RequestInit['dispatcher'];

  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const routed =
      target && url.origin === shopOrigin
        ? `${target.origin}${basePath}${url.pathname}${url.search}`
        : url.href;
    // The library only ever passes a URL string plus init; a Request would carry its own body.
    const request = input instanceof Request ? new Request(routed, input) : routed;
    return globalThis.fetch(request, { ...init, dispatcher });
  };
}
