import {
  GraphqlQueryError,
  HttpRequestError,
  HttpResponseError,
  type Session,
  type Shopify,
} from '@shopify/shopify-api';
import type { Logger } from '../../log.js';
import {
  type KnownRefusal,
  StoreAuthError,
  StoreBudgetWaitError,
  StoreError,
  StoreRequestError,
  StoreThrottledError,
  StoreUserError,
} from '../errors.js';
import { type FetchFunction, withFetch } from '../fetch-routing.js';
import type { AdminSessions } from './access-token.js';
import type { GrantedTicket, StoreCostGate } from './cost-gate.js';
import { storePriority } from './priority.js';
import { type QueryCost, queryCostOf, type StoreRequestOutcome } from './query-cost.js';
import { requestedCostOf } from './requested-costs.js';
import { type ThrottleSignal, throttleSignal } from './throttle.js';

type GraphqlClient = InstanceType<Shopify['clients']['Graphql']>;

/** Points for one send of a request (none without a shared bucket), and how long to wait first. */
type Booking = { granted: true; ticket?: GrantedTicket; waitMs: number };

export interface AdminGraphqlOptions {
  shopify: Shopify;
  sessions: AdminSessions;
  fetch: FetchFunction;
  logger: Logger;
  /** Waits for throttling (THROTTLED or 429) allowed per call before giving up. */
  maxThrottleWaits: number;
  sleep: (ms: number) => Promise<void>;
  /** Each request's outcome and cost, for metrics. */
  onRequest?: (outcome: StoreRequestOutcome) => void;
  /** The shop's bucket shared by every process; without it, each process waits on its own. */
  gate?: StoreCostGate;
  /** A longer wait for the bucket throws StoreBudgetWaitError instead (the job goes back). */
  maxBudgetWaitMs?: number;
}

/**
 * Sends one GraphQL document and returns its `data`, waiting out throttling and renewing a refused
 * client-credentials token once. Every other failure becomes a typed StoreError.
 */
export class AdminGraphql {
  private readonly clients = new WeakMap<Session, GraphqlClient>();

  constructor(private readonly options: AdminGraphqlOptions) {}

  async request(
    operation: string,
    document: string,
    variables?: Record<string, unknown>,
  ): Promise<unknown> {
    const { sessions, maxThrottleWaits, sleep } = this.options;
    let waits = 0;
    let renewed = false;
    let booking = await this.book(operation, document);
    for (;;) {
      // A booked place: wait for it, then ask again (the refill or refunds may cover it by then).
      while (booking.waitMs > 0) {
        await sleep(booking.waitMs);
        booking = booking.ticket?.booking
          ? await this.book(operation, document, booking.ticket)
          : { ...booking, waitMs: 0 };
      }
      const { ticket } = booking;
      const session = await sessions.session();
      try {
        const response = await withFetch(this.options.fetch, () =>
          this.client(session).request(document, { variables }),
        );
        const cost = queryCostOf(response.extensions);
        await this.settle(ticket, cost);
        this.observe({ operation, outcome: 'ok', cost });
        return response.data;
      } catch (error) {
        const throttle = throttleSignal(error);
        const cost =
          error instanceof GraphqlQueryError
            ? queryCostOf((error.body as { extensions?: unknown } | undefined)?.extensions)
            : undefined;
        await this.settle(ticket, cost);
        if (throttle && waits < maxThrottleWaits) {
          waits += 1;
          booking = await this.bookAfterThrottle(operation, document, throttle, cost, waits);
          continue;
        }
        this.observe({ operation, outcome: throttle ? 'throttled' : 'error', cost });
        if (throttle) {
          throw new StoreThrottledError(operation, waits, throttle.waitMs, {
            status: throttle.status,
            cause: error,
          });
        }
        if (!renewed && error instanceof HttpResponseError && error.response.code === 401) {
          renewed = true;
          if (await sessions.renewAfterUnauthorized(session)) {
            booking = await this.book(operation, document);
            continue;
          }
        }
        throw toStoreError(error, operation);
      }
    }
  }

  /**
   * Booked before the wait so the wait logged is the wait made: the later of what Shopify asks (for
   * its whole bucket) and what the shared bucket needs for the connector's share.
   */
  private async bookAfterThrottle(
    operation: string,
    document: string,
    throttle: ThrottleSignal,
    cost: QueryCost | undefined,
    wait: number,
  ): Promise<Booking> {
    const booking = await this.take(operation, document);
    const waitMs = Math.max(throttle.waitMs, booking.granted ? booking.waitMs : booking.deferMs);
    const fields = { operation, waitMs, wait, signal: throttle.kind };
    if (!booking.granted) {
      this.observe({ operation, outcome: 'throttled', cost });
      this.options.logger.info(
        fields,
        'Shopify throttled the request; the job goes back to its queue for the wait',
      );
      throw new StoreBudgetWaitError(operation, waitMs);
    }
    this.observe({ operation, outcome: 'throttled', cost, throttleWaitMs: waitMs });
    this.options.logger.info(fields, 'Shopify throttled the request; waiting before trying again');
    return { ...booking, waitMs };
  }

  /** Short waits happen here; a longer one throws StoreBudgetWaitError, freeing the worker. */
  private async book(
    operation: string,
    document: string,
    booked?: GrantedTicket,
  ): Promise<Booking> {
    const booking = await this.take(operation, document, booked);
    if (!booking.granted) throw new StoreBudgetWaitError(operation, booking.deferMs);
    return booking;
  }

  private async take(
    operation: string,
    document: string,
    booked?: GrantedTicket,
  ): Promise<Booking | { granted: false; deferMs: number }> {
    const { gate } = this.options;
    if (!gate) return { granted: true, waitMs: 0 };
    const ticket = await gate.take(
      {
        cost: requestedCostOf(document),
        operation,
        priority: storePriority(),
        booked,
      },
      this.options.maxBudgetWaitMs ?? 0,
    );
    if (!ticket.granted) return ticket;
    return { granted: true, ticket, waitMs: ticket.sendInMs };
  }

  /** Tells the shared bucket what the request cost; the answer stands even if Redis does not. */
  private async settle(ticket: GrantedTicket | undefined, cost: QueryCost | undefined) {
    if (!ticket || !this.options.gate) return;
    try {
      await this.options.gate.settle(ticket, cost);
    } catch (err) {
      this.options.logger.warn(
        { err },
        'could not record the request in the shared Shopify bucket',
      );
    }
  }

  private observe(outcome: StoreRequestOutcome): void {
    try {
      this.options.onRequest?.(outcome);
    } catch {
      // Metrics never change how a request ends.
    }
  }

  private client(session: Session): GraphqlClient {
    let client = this.clients.get(session);
    if (!client) {
      client = new this.options.shopify.clients.Graphql({ session });
      this.clients.set(session, client);
    }
    return client;
  }
}

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

function toStoreError(error: unknown, operation: string): StoreError {
  if (error instanceof StoreError) return error;
  if (error instanceof GraphqlQueryError) return fromGraphqlErrors(error, operation);
  if (error instanceof HttpResponseError) {
    const status = error.response.code;
    if (status === 401 || status === 403) {
      return new StoreAuthError(
        status === 401
          ? `Shopify refused the access token (HTTP 401) for ${operation}`
          : `The app lacks access for ${operation} (HTTP 403); check its scopes`,
        { operation, status, cause: error },
      );
    }
    if (status === 404) {
      return new StoreRequestError(
        `Admin API not found (HTTP 404) for ${operation}; check the shop domain and API version`,
        { operation, status, cause: error },
      );
    }
    return new StoreRequestError(`Shopify answered ${operation} with HTTP ${status}`, {
      operation,
      status,
      // 5xx, or a 2xx that was not the JSON we asked for (e.g. a proxy's page): may clear later.
      retryable: status >= 500 || status < 400,
      cause: error,
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

function fromGraphqlErrors(error: GraphqlQueryError, operation: string): StoreError {
  const list = (error.body as { errors?: { graphQLErrors?: unknown } } | undefined)?.errors
    ?.graphQLErrors;
  const errors: ({ message?: unknown; extensions?: { code?: unknown } } | undefined)[] =
    Array.isArray(list) ? list : [];
  const codes = errors.map((e) => e?.extensions?.code);
  const message = errors.length > 0 ? errors[0]?.message : error.message;
  const text = typeof message === 'string' ? message : 'unknown GraphQL error';
  const first = text.length > 200 ? `${text.slice(0, 199)}…` : text;
  if (codes.includes('ACCESS_DENIED')) {
    return new StoreAuthError(`The app lacks access for ${operation}: ${first}`, {
      operation,
      status: 200,
      cause: error,
    });
  }
  return new StoreRequestError(`Admin API rejected ${operation}: ${first}`, {
    operation,
    status: 200,
    retryable: codes.includes('INTERNAL_SERVER_ERROR'),
    cause: error,
  });
}
