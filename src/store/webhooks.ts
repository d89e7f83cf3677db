import './fetch-routing.js';
import type { Logger } from '../log.js';
import { createWebhookShopify } from './shopify.js';

/** Node/Fastify request headers, or a fetch Headers object. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export type WebhookVerification =
  | {
      valid: true;
      /** As Shopify sends it in X-Shopify-Topic, e.g. "orders/create". */
      topic: string;
      /** X-Shopify-Shop-Domain, e.g. "demo.myshopify.com". */
      shop: string;
      /** X-Shopify-Webhook-Id: the same for every retry of one delivery. */
      webhookId: string;
      /** X-Shopify-Event-Id: the same for every delivery of one event (dedupe on it). */
      eventId?: string;
      apiVersion: string;
      triggeredAt?: string;
    }
  | {
      valid: false;
      reason: 'missing_body' | 'missing_hmac' | 'invalid_hmac' | 'missing_headers' | 'wrong_shop';
      missingHeaders?: string[];
    };

export type VerifyWebhook = (
  rawBody: string,
  headers: WebhookHeaders,
) => Promise<WebhookVerification>;

/**
 * Checks a webhook delivery with the library's `webhooks.validate`: HMAC-SHA256 of the raw body
 * (exactly as received, before any JSON parsing) with the webhook secret, then the required
 * X-Shopify-* headers. On the node adapter `validate` reads only `rawRequest.headers` (plus method
 * and url), so a minimal request-like object is enough. With `shop`, a delivery signed for
 * another shop domain is refused too.
 */
export function createWebhookVerifier(options: {
  webhookSecret: string;
  apiVersion?: string;
  shop?: string;
  logger: Logger;
}): VerifyWebhook {
  const shopify = createWebhookShopify({
    webhookSecret: options.webhookSecret,
    apiVersion: options.apiVersion ?? '2026-07',
    logger: options.logger,
  });

  return async (rawBody, headers) => {
    const plainHeaders = toPlainHeaders(headers);
    const result = await shopify.webhooks.validate({
      rawBody,
      rawRequest: { headers: plainHeaders, method: 'POST', url: '/' },
    });
    if (!result.valid) {
      return {
        valid: false,
        reason: result.reason,
        ...('missingHeaders' in result ? { missingHeaders: result.missingHeaders } : {}),
      };
    }
    if (options.shop && result.domain !== options.shop) {
      return { valid: false, reason: 'wrong_shop' };
    }
    return {
      valid: true,
      // The library upper-cases the topic for its handler registry; keep Shopify's own spelling.
      topic: firstHeader(plainHeaders['x-shopify-topic']) ?? result.topic,
      shop: result.domain,
      webhookId: result.webhookId,
      apiVersion: result.apiVersion,
      ...(result.eventId ? { eventId: result.eventId } : {}),
      ...(result.triggeredAt ? { triggeredAt: result.triggeredAt } : {}),
    };
  };
}

function toPlainHeaders(headers: WebhookHeaders): Record<string, string | string[]> {
  const plain: Record<string, string | string[]> = {};
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value !== undefined) plain[name.toLowerCase()] = value;
  }
  return plain;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
