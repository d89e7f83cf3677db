import type { z } from 'zod';
import type { Logger } from '../../log.js';
import { StoreBudgetWaitError, StoreError, StoreRequestError } from '../errors.js';
import { shopFetch } from '../fetch-routing.js';
import { createAdminShopify, type ShopifyAuth } from '../shopify.js';
import {
  type AdminSessions,
  clientCredentialsSessions,
  fixedTokenSessions,
} from './access-token.js';
import type { StoreCostGate } from './cost-gate.js';
import { AdminGraphql } from './graphql-request.js';
import type { StoreRequestOutcome } from './query-cost.js';

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

export function createAdminTransport(options: AdminClientOptions): StoreTransport {
  const logger = options.logger.child({ module: 'store' });
  const shopify = createAdminShopify({ ...options, logger });
  const fetch = shopFetch(options.shop, options.adminApiUrl);
  const sessions: AdminSessions =
    options.auth.kind === 'accessToken'
      ? fixedTokenSessions(shopify, options.shop)
      : clientCredentialsSessions({ shopify, shop: options.shop, fetch, logger, now: options.now });
  const graphql = new AdminGraphql({
    shopify,
    sessions,
    fetch,
    logger,
    maxThrottleWaits: options.maxThrottleWaits ?? 10,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    onRequest: options.onRequest,
    gate: options.bucket,
    maxBudgetWaitMs: options.maxBudgetWaitMs ?? 10_000,
  });

  return {
    async send(operation, document, schema, variables) {
      let data: unknown;
      try {
        data = await graphql.request(operation, document, variables);
        options.onOutcome?.({ ok: true });
      } catch (error) {
        // A wait for the shared bucket sent nothing: it says nothing about Shopify's health.
        if (error instanceof StoreError && !(error instanceof StoreBudgetWaitError)) {
          options.onOutcome?.({ ok: false, error });
        }
        throw error;
      }
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
