// The node adapter must be imported before anything else from the library: it installs the
// library's fetch, which we replace right below.
import '@shopify/shopify-api/adapters/node';
import { AsyncLocalStorage } from 'node:async_hooks';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import { httpFetch } from './http-fetch.js';

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

/**
 * The Admin API client's fetch (httpFetch), which sends requests for `https://{shop}` to
 * `adminApiUrl` instead when one is set (keeping path and query), and everything else unchanged.
 */
export function shopFetch(shop: string, adminApiUrl?: string): FetchFunction {
  if (!adminApiUrl) return httpFetch;
  const shopOrigin = `https://${shop}`;
  const target = new URL(adminApiUrl);
  const basePath = target.pathname.replace(/\/+$/, '');

  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== shopOrigin) return httpFetch(input, init);
    const rewritten = `${target.origin}${basePath}${url.pathname}${url.search}`;
    // The library only ever passes a URL string plus init; a Request would carry its own body.
    return httpFetch(input instanceof Request ? new Request(rewritten, input) : rewritten, init);
  };
}
