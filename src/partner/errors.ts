import type { FieldErrors } from '../domain/shipment-contract.js';

/** `message` is safe to show an admin: never the token, request bodies or receiver data. */
export abstract class PartnerError extends Error {
  abstract readonly kind: string;
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.status = options.status;
  }
}

/** 401. */
export class PartnerAuthError extends PartnerError {
  readonly kind = 'auth';
}

export class PartnerNotFoundError extends PartnerError {
  readonly kind = 'not_found';
}

/** The base address is wrong (typically missing `/api/v1`); never "no such shipment". */
export class PartnerUrlMisconfiguredError extends PartnerError {
  readonly kind = 'url_misconfigured';
}

/** 422. */
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

export abstract class PartnerWaitError extends PartnerError {
  abstract readonly waitMs: number;
}

/** 429: nothing may be sent with this token for `retryAfterMs`. */
export class PartnerRateLimitedError extends PartnerWaitError {
  readonly kind = 'rate_limited';
  constructor(
    message: string,
    readonly retryAfterMs: number,
    /** False when a default was applied. */
    readonly retryAfterFromHeader: boolean,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(message, options);
  }
  get waitMs(): number {
    return this.retryAfterMs;
  }
}

export class PartnerBudgetExhaustedError extends PartnerWaitError {
  readonly kind = 'budget_exhausted';
  constructor(readonly waitMs: number) {
    super(`Partner request budget is spent; next request in ${Math.ceil(waitMs)} ms.`);
  }
}

export class PartnerServerError extends PartnerError {
  readonly kind = 'server';
}

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

export class PartnerUnexpectedResponseError extends PartnerError {
  readonly kind = 'unexpected_response';
}

/** Every partner call is safe to repeat (creates are keyed by reference). */
export function isRetryablePartnerError(error: unknown): boolean {
  if (error instanceof PartnerServerError || error instanceof PartnerNetworkError) return true;
  // A garbled 2xx or 5xx (a proxy's page) may clear; an unknown 4xx will not.
  return (
    error instanceof PartnerUnexpectedResponseError &&
    (error.status === undefined || error.status < 400 || error.status >= 500)
  );
}
