import type { RequestLogEntry } from './request-log.js';

export interface RequestCounts {
  /** Requests counted (after the `since` and `token` filters). */
  total: number;
  /** Per endpoint, `GET /shipments/{reference}` style: `{'GET /shipments': 3, 'POST /shipments': 1}`. */
  byEndpoint: Record<string, number>;
  /** The same split by answer: `{'GET /shipments 200': 2, 'GET /shipments 429': 1}`. */
  byEndpointAndStatus: Record<string, number>;
}

export interface RequestCountFilter {
  /** Only requests that arrived at or after this instant (ms since the epoch). */
  since?: number;
  /** Only requests that presented this token. */
  token?: string;
}

/**
 * The endpoint a logged request was for, as the contract names it: `GET /shipments/{reference}`
 * for any single reference. Paths the API does not serve are kept as sent (without /api/v1).
 */
export function endpointOf(entry: Pick<RequestLogEntry, 'method' | 'path'>): string {
  const path = entry.path.replace(/^\/api\/v1(?=\/|$)/, '') || '/';
  // The path is still percent-encoded, so a reference with a "/" in it is one segment here.
  const template = /^\/shipments\/[^/]+$/.test(path) ? '/shipments/{reference}' : path;
  return `${entry.method} ${template}`;
}

/** Counts the request log per endpoint, so tests and the benchmark can see what a client asked. */
export function countRequests(
  log: readonly RequestLogEntry[],
  filter: RequestCountFilter = {},
): RequestCounts {
  const counts: RequestCounts = { total: 0, byEndpoint: {}, byEndpointAndStatus: {} };
  for (const entry of log) {
    if (filter.since !== undefined && entry.at < filter.since) continue;
    if (filter.token !== undefined && entry.token !== filter.token) continue;
    const endpoint = endpointOf(entry);
    const withStatus = `${endpoint} ${entry.status}`;
    counts.total += 1;
    counts.byEndpoint[endpoint] = (counts.byEndpoint[endpoint] ?? 0) + 1;
    counts.byEndpointAndStatus[withStatus] = (counts.byEndpointAndStatus[withStatus] ?? 0) + 1;
  }
  return counts;
}
