import { GraphqlQueryError, HttpRequestError, HttpResponseError } from '@shopify/shopify-api';
import {
  type KnownRefusal,
  StoreAuthError,
  StoreError,
  StoreRequestError,
  StoreUserError,
} from '../errors.js';

export function throwOnUserErrors(
  operation: string,
  userErrors: readonly { field?: string[] | null; message: string; code?: string | null }[],
  knownRefusals?: readonly KnownRefusal[],
  options: { orderStatusSet?: boolean; writeMade?: boolean } = {},
): void {
  if (userErrors.length === 0) return;
  const details = userErrors.map((e) => ({
    field: e.field ?? [],
    message: e.message,
    ...(e.code ? { code: e.code } : {}),
  }));
  throw new StoreUserError(operation, details, { knownRefusals, ...options });
}

export function toStoreError(error: unknown, operation: string): StoreError {
  if (error instanceof StoreError) return error;
  if (error instanceof GraphqlQueryError) {
    const list = (error.body as { errors?: { graphQLErrors?: unknown } } | undefined)?.errors
      ?.graphQLErrors;
    const errors: ({ message?: unknown; extensions?: { code?: unknown } } | undefined)[] =
      Array.isArray(list) ? list : [];
    const codes = errors.map((e) => e?.extensions?.code);
    const message = errors.length > 0 ? errors[0]?.message : error.message;
    const text = typeof message === 'string' ? message : 'unknown GraphQL error';
    const first = text.length > 200 ? `${text.slice(0, 199)}…` : text;
    const fields = { operation, status: 200, cause: error };
    if (codes.includes('ACCESS_DENIED')) {
      return new StoreAuthError(`The app lacks access for ${operation}: ${first}`, fields);
    }
    return new StoreRequestError(`Admin API rejected ${operation}: ${first}`, {
      ...fields,
      retryable: codes.includes('INTERNAL_SERVER_ERROR'),
    });
  }
  if (error instanceof HttpResponseError) {
    const status = error.response.code;
    const fields = { operation, status, cause: error };
    if (status === 401 || status === 403) {
      return new StoreAuthError(
        status === 401
          ? `Shopify refused the access token (HTTP 401) for ${operation}`
          : `The app lacks access for ${operation} (HTTP 403); check its scopes`,
        fields,
      );
    }
    if (status === 404) {
      return new StoreRequestError(
        `Admin API not found (HTTP 404) for ${operation}; check the shop domain and API version`,
        fields,
      );
    }
    return new StoreRequestError(`Shopify answered ${operation} with HTTP ${status}`, {
      ...fields,
      // 5xx, or a 2xx that was not the JSON we asked for (e.g. a proxy's page): may clear later.
      retryable: status >= 500 || status < 400,
    });
  }
  if (error instanceof HttpRequestError) {
    return new StoreRequestError(`Shopify could not be reached for ${operation}`, {
      operation,
      retryable: true,
      cause: error,
    });
  }
  return new StoreRequestError(`${operation} failed unexpectedly`, { operation, cause: error });
}
