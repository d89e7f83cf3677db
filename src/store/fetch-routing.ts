// Must come first: the node adapter installs the library's fetch, which we replace below.
import '@shopify/shopify-api/adapters/node';
import { AsyncLocalStorage } from 'node:async_hooks';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import { Agent } from 'undici';

/**
 * The library's one process-wide fetch, as the adapter sets it, cannot reach a local fake store
 * (it always builds `https://{shop}` URLs) and misses nock loaded later. So inside
 * `libFetch.run(f, …)` it uses `f`, elsewhere the current `globalThis.fetch`. AsyncLocalStorage
 * keeps one client's fetch out of another's requests, however their awaits interleave.
 */
export const libFetch = new AsyncLocalStorage<typeof fetch>();

setAbstractFetchFunc((input, init) => (libFetch.getStore() ?? globalThis.fetch)(input, init));

/** Idle: the longest silence while an answer's headers or next bytes are awaited (undici: 300 s). */
export function storeConnections({
  idleTimeoutMs = 60_000,
  connectTimeoutMs = 10_000,
} = {}): Agent {
  return new Agent({
    connect: { timeout: connectTimeoutMs },
    headersTimeout: idleTimeoutMs,
    bodyTimeout: idleTimeoutMs,
  });
}

const sharedConnections = storeConnections();

/**
 * Sends `https://{shop}` requests to `adminApiUrl` when set. `globalThis.fetch` is looked up per
 * request so that nock, which replaces it, sees every one. Stay on undici 7: undici 8's Agent does
 * not serve Node 22's fetch.
 */
export function shopFetch(
  shop: string,
  adminApiUrl?: string,
  connections: Agent = sharedConnections,
): typeof fetch {
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
