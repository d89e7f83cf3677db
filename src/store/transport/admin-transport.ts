import {
  GraphqlQueryError,
  HttpResponseError,
  type Session,
  type Shopify,
} from '@shopify/shopify-api';
import type { z } from 'zod';
import type { Logger } from '../../log.js';
import {
  StoreBudgetWaitError,
  StoreError,
  StoreRequestError,
  StoreThrottledError,
} from '../errors.js';
import { libFetch, shopFetch } from '../fetch-routing.js';
import { createAdminShopify, type ShopifyAuth } from '../shopify.js';
import { clientCredentialsSessions, fixedTokenSessions } from './access-token.js';
import type { GrantedTicket, StoreCostGate } from './cost-gate.js';
import { toStoreError } from './graphql-request.js';
import { storePriority } from './priority.js';
import { type QueryCost, queryCostOf, type StoreRequestOutcome } from './query-cost.js';
import { requestedCostOf } from './requested-costs.js';
import { throttleSignal } from './throttle.js';

export interface AdminClientOptions {
  /** name.myshopify.com */
  shop: string;
  auth: ShopifyAuth;
  /** e.g. "2026-10" */
  apiVersion: string;
  /** Send every Admin API request (and the token request) here instead of https://{shop}. */
  adminApiUrl?: string;
  /** A fixed-token custom app's API secret key, which the library insists on (see shopify.ts). */
  webhookSecret: string;
  logger: Logger;
  /** Throttle waits allowed per call before StoreThrottledError (default 10). */
  maxThrottleWaits?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Told how each request ended (Shopify answered, or the error), e.g. to report health. */
  onOutcome?: (outcome: StoreOutcome) => void;
  /** Told how each request ended, with its cost and throttling (for metrics). */
  onRequest?: (outcome: StoreRequestOutcome) => void;
  /** Shared by every process (SharedStoreBucket); without it, only THROTTLED makes this wait. */
  bucket?: StoreCostGate;
  /** Past it, StoreBudgetWaitError. Default 10 s: a standard bucket refilling from empty. */
  maxBudgetWaitMs?: number;
}

/** How one request to the Admin API ended: answered (even with userErrors), or failed. */
export type StoreOutcome = { ok: true } | { ok: false; error: StoreError };

/** One per shop: its capabilities share the token, its renewal and the throttle waits. */
export interface StoreTransport {
  /** Sends one document and returns its `data`, checked against `schema`. */
  send<S extends z.ZodType>(
    operation: string,
    document: string,
    schema: S,
    variables: Record<string, unknown>,
  ): Promise<z.output<S>>;
}

/**
 * Each request waits out throttling and renews a refused client-credentials token once; every
 * other failure becomes a typed StoreError.
 */
export function createAdminTransport(options: AdminClientOptions): StoreTransport {
  const logger = options.logger.child({ module: 'store' });
  const shopify = createAdminShopify({ ...options, logger });
  const fetch = shopFetch(options.shop, options.adminApiUrl);
  const sessions =
    options.auth.kind === 'accessToken'
      ? fixedTokenSessions(shopify, options.shop)
      : clientCredentialsSessions({ shopify, shop: options.shop, fetch, logger, now: options.now });
  const sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  const gate = options.bucket;
  const clients = new WeakMap<Session, InstanceType<Shopify['clients']['Graphql']>>();

  async function request(
    operation: string,
    document: string,
    variables: Record<string, unknown>,
  ): Promise<unknown> {
    /**
     * Points for this send (none without a shared bucket) and the wait before it, at least
     * `atLeastMs`. A wait past maxBudgetWaitMs throws StoreBudgetWaitError, freeing the worker.
     */
    async function book(booked?: GrantedTicket, atLeastMs = 0) {
      const ticket = await gate?.take(
        { cost: requestedCostOf(document), operation, priority: storePriority(), booked },
        options.maxBudgetWaitMs ?? 10_000,
      );
      if (ticket?.granted === false) {
        throw new StoreBudgetWaitError(operation, Math.max(atLeastMs, ticket.deferMs));
      }
      return { ticket, waitMs: Math.max(atLeastMs, ticket?.sendInMs ?? 0) };
    }

    let waits = 0;
    let renewed = false;
    let booking = await book();
    for (;;) {
      // A booked place: wait for it, then ask again (the refill or refunds may cover it by then).
      while (booking.waitMs > 0) {
        await sleep(booking.waitMs);
        booking = booking.ticket?.booking ? await book(booking.ticket) : { ...booking, waitMs: 0 };
      }
      const session = await sessions.session();
      try {
        const client = clients.get(session) ?? new shopify.clients.Graphql({ session });
        clients.set(session, client);
        const response = await libFetch.run(fetch, () => client.request(document, { variables }));
        const cost = queryCostOf(response);
        await settle(booking.ticket, cost);
        observe({ operation, outcome: 'ok', cost });
        return response.data;
      } catch (error) {
        const throttle = throttleSignal(error);
        const cost = queryCostOf(error instanceof GraphqlQueryError ? error.body : undefined);
        await settle(booking.ticket, cost);
        if (throttle && waits < (options.maxThrottleWaits ?? 10)) {
          waits += 1;
          // Booked before the wait so the wait logged is the wait made: the later of what Shopify
          // asks (for its whole bucket) and what the shared bucket needs for the connector's share.
          const next = await book(undefined, throttle.waitMs).catch((error: unknown) =>
            error instanceof StoreBudgetWaitError ? error : Promise.reject(error),
          );
          const deferred = next instanceof StoreBudgetWaitError;
          const throttleWaitMs = deferred ? undefined : next.waitMs;
          observe({ operation, outcome: 'throttled', cost, throttleWaitMs });
          logger.info(
            { operation, waitMs: next.waitMs, wait: waits, signal: throttle.kind },
            deferred
              ? 'Shopify throttled the request; the job goes back to its queue for the wait'
              : 'Shopify throttled the request; waiting before trying again',
          );
          if (deferred) throw next;
          booking = next;
          continue;
        }
        observe({ operation, outcome: throttle ? 'throttled' : 'error', cost });
        if (throttle) {
          throw new StoreThrottledError(operation, waits, throttle.waitMs, {
            status: throttle.status,
            cause: error,
          });
        }
        if (!renewed && error instanceof HttpResponseError && error.response.code === 401) {
          renewed = true;
          if (await sessions.renewAfterUnauthorized(session)) {
            booking = await book();
            continue;
          }
        }
        throw toStoreError(error, operation);
      }
    }
  }

  /** Tells the shared bucket what the request cost; the answer stands even if Redis does not. */
  async function settle(ticket: GrantedTicket | undefined, cost: QueryCost | undefined) {
    if (!ticket || !gate) return;
    try {
      await gate.settle(ticket, cost);
    } catch (err) {
      logger.warn({ err }, 'could not record the request in the shared Shopify bucket');
    }
  }

  function observe(outcome: StoreRequestOutcome): void {
    try {
      options.onRequest?.(outcome);
    } catch {
      // Metrics never change how a request ends.
    }
  }

  return {
    async send(operation, document, schema, variables) {
      const data = await request(operation, document, variables).catch((error: unknown) => {
        // A wait for the shared bucket sent nothing: it says nothing about Shopify's health.
        if (error instanceof StoreError && !(error instanceof StoreBudgetWaitError)) {
          options.onOutcome?.({ ok: false, error });
        }
        throw error;
      });
      options.onOutcome?.({ ok: true });
      const parsed = schema.safeParse(data);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new StoreRequestError(
          `Shopify's answer to ${operation} has an unexpected shape (at ${issue?.path.join('.') || 'top level'})`,
          { operation, cause: parsed.error },
        );
      }
      return parsed.data;
    },
  };
}
