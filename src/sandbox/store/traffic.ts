export interface DropAnswersOptions {
  /** How many matching mutations lose their answer. */
  count: number;
  /** Only mutations with this operation name or root field (e.g. fulfillmentCreate). */
  operation?: string;
  /** bad_gateway (default): HTTP 502 after applying; connection_reset: the socket is destroyed. */
  how?: 'bad_gateway' | 'connection_reset';
}

export interface ServerErrorOptions {
  /** How many matching requests fail. */
  count: number;
  /** Only requests with this operation name or root field (e.g. metafieldsSet). */
  operation?: string;
  /** The status to answer: 500 (default), 502, 503 or 504. Nothing is applied. */
  status?: 500 | 502 | 503 | 504;
}

/**
 * What the fake store does to the next GraphQL requests instead of answering them: HTTP 200
 * THROTTLED (the cost bucket is empty) or HTTP 429 with Retry-After, or a 5xx before running anything; or, for mutations, apply
 * them and lose the answer (a proxy's 502, a dropped connection).
 */
export class TrafficControl {
  private throttle = { remaining: 0, currentlyAvailable: 0, restoreRate: 100 };
  private rateLimit = { remaining: 0, retryAfterSeconds: 1 };
  private serverError: Required<Omit<ServerErrorOptions, 'operation'>> & { operation?: string } = {
    count: 0,
    status: 500,
  };
  private drop: Required<Omit<DropAnswersOptions, 'operation'>> & { operation?: string } = {
    count: 0,
    how: 'bad_gateway',
  };

  dropNextAnswers(options: DropAnswersOptions) {
    this.drop = { ...options, how: options.how ?? 'bad_gateway' };
  }

  serverErrorNext(options: ServerErrorOptions) {
    this.serverError = { ...options, status: options.status ?? 500 };
  }

  /** Whether this mutation (already applied) loses its answer, and how. */
  takeDrop(operationName: string | null, rootFields: string[]) {
    if (this.drop.count <= 0) return undefined;
    const { operation } = this.drop;
    if (operation && operation !== operationName && !rootFields.includes(operation)) {
      return undefined;
    }
    this.drop.count -= 1;
    return this.drop.how;
  }

  throttleNext(count: number, options: { currentlyAvailable?: number; restoreRate?: number } = {}) {
    this.throttle = {
      remaining: count,
      currentlyAvailable: options.currentlyAvailable ?? 0,
      restoreRate: options.restoreRate ?? 100,
    };
  }

  rateLimitNext(count: number, options: { retryAfterSeconds?: number } = {}) {
    this.rateLimit = { remaining: count, retryAfterSeconds: options.retryAfterSeconds ?? 1 };
  }

  /** Takes the next planned refusal, if any; a 429 goes before a 5xx, a 5xx before THROTTLED. */
  next(
    operationName: string | null = null,
    rootFields: string[] = [],
  ):
    | { kind: 'rate_limited'; retryAfterSeconds: number }
    | { kind: 'server_error'; status: number }
    | { kind: 'throttled'; currentlyAvailable: number; restoreRate: number }
    | undefined {
    if (this.rateLimit.remaining > 0) {
      this.rateLimit.remaining -= 1;
      return { kind: 'rate_limited', retryAfterSeconds: this.rateLimit.retryAfterSeconds };
    }
    const failing = this.serverError;
    const matches =
      !failing.operation ||
      failing.operation === operationName ||
      rootFields.includes(failing.operation);
    if (failing.count > 0 && matches) {
      failing.count -= 1;
      return { kind: 'server_error', status: failing.status };
    }
    if (this.throttle.remaining > 0) {
      this.throttle.remaining -= 1;
      const { currentlyAvailable, restoreRate } = this.throttle;
      return { kind: 'throttled', currentlyAvailable, restoreRate };
    }
    return undefined;
  }
}
