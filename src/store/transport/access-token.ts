import { HttpResponseError, type Session, type Shopify } from '@shopify/shopify-api';
import type { Logger } from '../../log.js';
import { StoreAuthError, StoreRequestError } from '../errors.js';
import { libFetch } from '../fetch-routing.js';

/** A custom app's fixed token: the library adds it itself; nothing to renew. */
export function fixedTokenSessions(shopify: Shopify, shop: string) {
  const session = shopify.session.customAppSession(shop);
  return {
    session: async () => session,
    renewAfterUnauthorized: async () => false,
  };
}

/** Renew this long before the token expires, so no request goes out with a dying token. */
const RENEW_BEFORE_EXPIRY_MS = 5 * 60_000;

/** Renewed before expiry and once after a 401; concurrent callers share one token request. */
export function clientCredentialsSessions(options: {
  shopify: Shopify;
  shop: string;
  fetch: typeof fetch;
  logger: Logger;
  now?: () => number;
}) {
  const now = options.now ?? Date.now;
  let current: { session: Session; renewAt: number } | undefined;
  let inFlight: Promise<Session> | undefined;

  async function requestToken(): Promise<Session> {
    const requestedAt = now();
    const { session } = await libFetch
      .run(options.fetch, () => options.shopify.auth.clientCredentials({ shop: options.shop }))
      .catch((error: unknown) => {
        throw tokenError(error);
      });
    if (!session.accessToken) {
      throw new StoreRequestError('Shopify answered the token request without an access token', {
        operation: 'ClientCredentials',
      });
    }
    const expiresAt = session.expires?.getTime();
    // A token that lives less than twice the margin is renewed halfway through its life instead.
    const renewAt =
      expiresAt === undefined
        ? Number.POSITIVE_INFINITY
        : expiresAt - Math.min(RENEW_BEFORE_EXPIRY_MS, (expiresAt - requestedAt) / 2);
    current = { session, renewAt };
    options.logger.info(
      { expiresAt: expiresAt === undefined ? null : new Date(expiresAt).toISOString() },
      'obtained a Shopify access token by client credentials',
    );
    return session;
  }

  function renew(): Promise<Session> {
    inFlight ??= requestToken().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  return {
    async session() {
      return current && now() < current.renewAt ? current.session : renew();
    },
    /** After a 401: true when a fresh token is in place and one more try is worth it. */
    async renewAfterUnauthorized(refused: Session) {
      // Another caller may have renewed already; then its token is the one to retry with.
      if (current && current.session !== refused) return true;
      options.logger.warn('Shopify refused the access token; requesting a new one');
      await renew();
      return true;
    },
  };
}

function tokenError(error: unknown): Error {
  const operation = 'ClientCredentials';
  const status = error instanceof HttpResponseError ? error.response.code : undefined;
  if (status !== undefined && status >= 400 && status < 500 && status !== 429) {
    return new StoreAuthError(
      `Shopify refused the client credentials (HTTP ${status}); check the client id and secret`,
      { operation, status, cause: error },
    );
  }
  const why = status === undefined ? ': no usable answer' : ` (HTTP ${status})`;
  return new StoreRequestError(`Shopify token request failed${why}`, {
    operation,
    status,
    retryable: true,
    cause: error,
  });
}
