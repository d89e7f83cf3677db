type StoreErrorOptions = { operation?: string; status?: number; cause?: unknown };

/**
 * One class per meaning of a Shopify answer. `message` is safe to show an admin (Bull Board,
 * logs): never an access token, a client secret or customer data.
 */
export abstract class StoreError extends Error {
  abstract readonly kind: string;
  readonly operation: string | undefined;
  readonly status: number | undefined;

  constructor(message: string, options: StoreErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.operation = options.operation;
    this.status = options.status;
  }
}

/** 401/403 or ACCESS_DENIED: the token is wrong, revoked, or lacks a scope. Retrying cannot help. */
export class StoreAuthError extends StoreError {
  readonly kind = 'auth';
}

/** The order (or fulfillment) the call was about does not exist in the store. */
export class StoreNotFoundError extends StoreError {
  readonly kind = 'not_found';
}

/** A refusal Shopify is known to give; `code` is stable for callers to branch on. */
export interface KnownRefusal {
  code: string;
  /** Matches the userError's message, or its `code` when `userErrorCode` is given instead. */
  pattern?: RegExp;
  userErrorCode?: string;
  explanation: string;
}

/** A mutation answered with `userErrors`: Shopify refused the input; nothing was changed. */
export class StoreUserError extends StoreError {
  readonly kind = 'user_error';
  /** The code of the first userError that is a known refusal, else undefined. */
  readonly refusal: string | undefined;
  /** …WithStatus: Shopify refused the write but set the status metafields (run on their own). */
  readonly orderStatusSet: boolean;
  /** The write was made, only its status metafields refused: sent again, it would be made twice. */
  readonly writeMade: boolean;
  constructor(
    operation: string,
    /** field: the input's path, e.g. ["metafields", "0", "value"]; empty when Shopify gave none. */
    readonly userErrors: { field: string[]; message: string; code?: string }[],
    options: {
      knownRefusals?: readonly KnownRefusal[];
      orderStatusSet?: boolean;
      writeMade?: boolean;
    } = {},
  ) {
    const [known] = userErrors.flatMap((detail) => {
      const refusal = options.knownRefusals?.find((r) =>
        r.userErrorCode ? detail.code === r.userErrorCode : r.pattern?.test(detail.message),
      );
      return refusal ? [{ detail, refusal }] : [];
    });
    const first = known?.detail ?? userErrors[0];
    const said = first
      ? `${first.field.length > 0 ? `${first.field.join('.')}: ` : ''}${first.message}`
      : 'no detail given';
    const summary = known ? `${known.refusal.explanation} (Shopify said: "${said}")` : said;
    const more = userErrors.length > 1 ? ` (and ${userErrors.length - 1} more)` : '';
    super(`Shopify refused ${operation}: ${summary}${more}`, { operation });
    this.refusal = known?.refusal.code;
    this.orderStatusSet = options.orderStatusSet ?? false;
    this.writeMade = options.writeMade ?? false;
  }
}

/** Shopify kept throttling after the client had waited as often as it may. */
export class StoreThrottledError extends StoreError {
  readonly kind = 'throttled';
  constructor(
    operation: string,
    readonly waits: number,
    /** What Shopify last asked us to wait. */
    readonly lastWaitMs: number,
    options: Omit<StoreErrorOptions, 'operation'> = {},
  ) {
    super(`Shopify throttled ${operation} ${waits} times in a row; try again later`, {
      ...options,
      operation,
    });
  }
}

/** Nothing sent: the shared bucket lacks room for longer than a worker should wait. */
export class StoreBudgetWaitError extends StoreError {
  readonly kind = 'budget_wait';
  constructor(
    operation: string,
    readonly waitMs: number,
  ) {
    super(`Shopify's bucket has no room for ${operation} for ${waitMs} ms`, { operation });
  }
}

/** Network failure, 5xx, or an answer that does not match what we asked for. */
export class StoreRequestError extends StoreError {
  readonly kind = 'request';
  /** Whether the same call may succeed later (network and 5xx yes, a malformed query no). */
  readonly retryable: boolean;
  constructor(message: string, options: StoreErrorOptions & { retryable?: boolean } = {}) {
    super(message, options);
    this.retryable = options.retryable ?? false;
  }
}

export function isRetryableStoreError(error: unknown): boolean {
  return (
    error instanceof StoreThrottledError ||
    error instanceof StoreBudgetWaitError ||
    (error instanceof StoreRequestError && error.retryable)
  );
}
