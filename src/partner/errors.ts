import type { FieldErrors } from '../domain/shipment-contract.js';

/**
 * One error class per meaning of a partner answer. `message` is short and safe to show an admin
 * (Bull Board, order notes): it never holds the token, request bodies or receiver data.
 */
export abstract class PartnerError extends Error {
  abstract readonly kind: string;
  /** HTTP status, when an answer came back. */
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.status = options.status;
  }
}

/** 401: the token is missing, malformed or revoked. Retrying cannot help. */
export class PartnerAuthError extends PartnerError {
  readonly kind = 'auth';
}

/** 404: no shipment with that reference on this account. */
export class PartnerNotFoundError extends PartnerError {
  readonly kind = 'not_found';
}

/**
 * 404 from a route the API always has (`POST /token`, `GET` or `POST /shipments`), or an answer
 * that is not the API's at all (an HTML page): the base address is wrong, typically missing
 * `/api/v1`. It says nothing about any shipment, so it must never be recorded as "no such
 * shipment"; every call fails the same way until PARTNER_API_URL is fixed.
 */
export class PartnerUrlMisconfiguredError extends PartnerError {
  readonly kind = 'url_misconfigured';
}

/** The admin's words for a misconfigured base address; `what` is the call, e.g. `GET /shipments`. */
export function misconfiguredUrlMessage(what: string): string {
  return `Partner API answered 404 to ${what}, a route the API always has: PARTNER_API_URL is misconfigured (it must be the base address including /api/v1, e.g. https://partner.example.com/api/v1).`;
}

/** 422: the request broke the API's rules; `fieldErrors` is the API's map, as sent. */
export class PartnerValidationError extends PartnerError {
  readonly kind = 'validation';
  constructor(
    message: string,
    readonly fieldErrors: FieldErrors,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

/** Something made the client hold back before or instead of sending; wait `waitMs`. */
export abstract class PartnerWaitError extends PartnerError {
  abstract readonly waitMs: number;
}

/** 429: the provider refused; nothing may be sent with this token for `retryAfterMs`. */
export class PartnerRateLimitedError extends PartnerWaitError {
  readonly kind = 'rate_limited';
  constructor(
    message: string,
    readonly retryAfterMs: number,
    /** False when the answer had no usable Retry-After and a default was applied. */
    readonly retryAfterFromHeader: boolean,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(message, options);
  }
  get waitMs(): number {
    return this.retryAfterMs;
  }
}

/** The shared request budget is spent; nothing was sent. */
export class PartnerBudgetExhaustedError extends PartnerWaitError {
  readonly kind = 'budget_exhausted';
  constructor(readonly waitMs: number) {
    super(`Partner request budget is spent; next request in ${Math.ceil(waitMs)} ms.`);
  }
}

/** 5xx: a failure on the provider's side; retry with the same reference. */
export class PartnerServerError extends PartnerError {
  readonly kind = 'server';
}

/** No answer: connection refused or reset, DNS failure, timeout. Retry with the same reference. */
export class PartnerNetworkError extends PartnerError {
  readonly kind = 'network';
  constructor(
    message: string,
    readonly code: string | undefined,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

/** An answer that does not match the contract (bad JSON, wrong shape, an undocumented status). */
export class PartnerUnexpectedResponseError extends PartnerError {
  readonly kind = 'unexpected_response';
}

/**
 * Whether a later attempt with the same request may succeed. Every partner call is safe to
 * repeat (creates are keyed by reference), so only answers that say "your request is wrong" are final.
 */
export function isRetryablePartnerError(error: unknown): boolean {
  if (error instanceof PartnerServerError || error instanceof PartnerNetworkError) return true;
  // A garbled 2xx or 5xx (say, a proxy's HTML page) may clear; a 4xx we do not understand will not.
  return (
    error instanceof PartnerUnexpectedResponseError &&
    (error.status === undefined || error.status < 400 || error.status >= 500)
  );
}
