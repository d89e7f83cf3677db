import '@shopify/shopify-api/adapters/node';
import { ApiVersion, LogSeverity, shopifyApi } from '@shopify/shopify-api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signWebhook, webhookHeaders } from '../../src/sandbox/store/webhooks.js';
import { createWebhookVerifier } from '../../src/store/webhooks.js';
import { SHOP, WEBHOOK_SECRET } from './helpers.js';

const body = JSON.stringify({ id: 5551234, admin_graphql_api_id: 'gid://shopify/Order/5551234' });

/** Headers as Node/Fastify hand them over: lower-case names. */
function signedHeaders(overrides: Record<string, string | undefined> = {}) {
  const headers = webhookHeaders({
    topic: 'orders/create',
    shop: SHOP,
    secret: WEBHOOK_SECRET,
    apiVersion: '2026-10',
    body,
    webhookId: 'wh-1',
    eventId: 'ev-1',
    triggeredAt: '2026-11-21T10:00:00Z',
  });
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { ...lower, ...overrides };
}

const verify = createWebhookVerifier({
  webhookSecret: WEBHOOK_SECRET,
  shop: SHOP,
});

describe('verifyWebhook', () => {
  it('accepts a delivery signed with the webhook secret and reads its headers', async () => {
    await expect(verify(body, signedHeaders())).resolves.toEqual({
      valid: true,
      topic: 'orders/create',
      shop: SHOP,
      webhookId: 'wh-1',
      eventId: 'ev-1',
      apiVersion: '2026-10',
      triggeredAt: '2026-11-21T10:00:00Z',
    });
  });

  it('refuses a body changed after signing', async () => {
    const tampered = body.replace('5551234', '5551235');
    await expect(verify(tampered, signedHeaders())).resolves.toEqual({
      valid: false,
      reason: 'invalid_hmac',
    });
  });

  it('refuses a signature made with another secret', async () => {
    const forged = signedHeaders({ 'x-shopify-hmac-sha256': signWebhook('not-the-secret', body) });
    await expect(verify(body, forged)).resolves.toMatchObject({
      valid: false,
      reason: 'invalid_hmac',
    });
  });

  it('refuses an unsigned delivery', async () => {
    const unsigned = signedHeaders({ 'x-shopify-hmac-sha256': undefined });
    await expect(verify(body, unsigned)).resolves.toMatchObject({
      valid: false,
      reason: 'missing_hmac',
    });
  });

  it('refuses an empty body', async () => {
    await expect(verify('', signedHeaders())).resolves.toMatchObject({
      valid: false,
      reason: 'missing_body',
    });
  });

  it('names the missing Shopify headers of a signed delivery', async () => {
    const result = await verify(body, signedHeaders({ 'x-shopify-topic': undefined }));
    expect(result).toEqual({
      valid: false,
      reason: 'missing_headers',
      missingHeaders: ['X-Shopify-Topic'],
    });
  });

  it('refuses a valid delivery for another shop', async () => {
    const other = signedHeaders({ 'x-shopify-shop-domain': 'other.myshopify.com' });
    await expect(verify(body, other)).resolves.toEqual({ valid: false, reason: 'wrong_shop' });
  });

  it('takes fetch Headers as well as a plain object', async () => {
    const headers = new Headers(signedHeaders() as Record<string, string>);
    await expect(verify(body, headers)).resolves.toMatchObject({ valid: true, webhookId: 'wh-1' });
  });

  it('checks the exact bytes: re-serialised JSON with other spacing fails', async () => {
    const reserialised = JSON.stringify(JSON.parse(body), null, 2);
    await expect(verify(reserialised, signedHeaders())).resolves.toMatchObject({ valid: false });
  });
});

/**
 * The verifier is written with node:crypto for speed; the library's own `webhooks.validate` is
 * the reference. Deliveries with every mix of body, signature and headers get the same verdict
 * from both.
 */
describe('verifyWebhook agrees with the Shopify library', () => {
  const library = shopifyApi({
    isEmbeddedApp: false,
    isCustomStoreApp: false,
    hostName: 'connector.invalid',
    apiKey: 'webhook-verifier',
    apiSecretKey: WEBHOOK_SECRET,
    apiVersion: ApiVersion.October26,
    logger: { level: LogSeverity.Error, log: async () => {} },
  });
  const anyShop = createWebhookVerifier({ webhookSecret: WEBHOOK_SECRET });

  const header = fc.option(
    fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('orders/create', 'wh-1', '2026-10')),
    { nil: undefined },
  );
  const delivery = fc.record({
    body: fc.oneof(fc.constant(''), fc.string({ maxLength: 200 }), fc.constant(body)),
    signature: fc.constantFrom('right', 'other secret', 'garbage', 'padding dropped', 'absent'),
    names: fc.constantFrom('lower', 'as sent'),
    topic: header,
    shop: header,
    apiVersion: header,
    webhookId: header,
    eventId: header,
    triggeredAt: header,
  });

  it('gives the same verdict and fields on generated deliveries', async () => {
    await fc.assert(
      fc.asyncProperty(delivery, async (d) => {
        const signature = {
          right: signWebhook(WEBHOOK_SECRET, d.body),
          'other secret': signWebhook('not-the-secret', d.body),
          garbage: 'not base64 at all!',
          'padding dropped': signWebhook(WEBHOOK_SECRET, d.body).replace(/=+$/, ''),
          absent: undefined,
        }[d.signature];
        const sent: Record<string, string | undefined> = {
          'X-Shopify-Hmac-Sha256': signature,
          'X-Shopify-Topic': d.topic,
          'X-Shopify-Shop-Domain': d.shop,
          'X-Shopify-API-Version': d.apiVersion,
          'X-Shopify-Webhook-Id': d.webhookId,
          'X-Shopify-Event-Id': d.eventId,
          'X-Shopify-Triggered-At': d.triggeredAt,
        };
        const headers = Object.fromEntries(
          Object.entries(sent)
            .filter(([, value]) => value !== undefined)
            .map(([name, value]) => [d.names === 'lower' ? name.toLowerCase() : name, value]),
        );
        const ours = await anyShop(d.body, headers);
        const theirs = await library.webhooks.validate({
          rawBody: d.body,
          rawRequest: { headers, method: 'POST', url: '/' },
        });
        expect(ours.valid).toBe(theirs.valid);
        if (!ours.valid && !theirs.valid) {
          expect(ours.reason).toBe(theirs.reason);
          if ('missingHeaders' in theirs)
            expect(ours.missingHeaders).toEqual(theirs.missingHeaders);
        } else if (ours.valid && theirs.valid) {
          expect(ours).toEqual({
            valid: true,
            topic: d.topic,
            shop: theirs.domain,
            webhookId: theirs.webhookId,
            apiVersion: theirs.apiVersion,
            ...('eventId' in theirs && theirs.eventId ? { eventId: theirs.eventId } : {}),
            ...(theirs.triggeredAt ? { triggeredAt: theirs.triggeredAt } : {}),
          });
        }
      }),
      { seed: 20261122, numRuns: 500 },
    );
  });
});
