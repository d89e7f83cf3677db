/** One API request as the sandbox saw it; lets tests and the benchmark audit the rate limit. */
export interface RequestLogEntry {
  /** Arrival time, ms since the epoch: the same instant the rate limiter counted. */
  at: number;
  /** The bearer token presented (even if unknown or revoked), or null when there was none. */
  token: string | null;
  method: string;
  /** Path without the query string, e.g. `/api/v1/shipments/1001`. */
  path: string;
  /** The query string without `?`, empty when there was none. */
  query: string;
  status: number;
  /** On a 429: the Retry-After the sandbox sent, in seconds. */
  retryAfterS?: number;
}

/** Pulls the token out of `Authorization: Bearer <token>`; null when absent or malformed. */
export function bearerToken(authorization: string | undefined): string | null {
  const match = /^Bearer +([^\s]+) *$/i.exec(authorization ?? '');
  return match ? match[1]! : null;
}
