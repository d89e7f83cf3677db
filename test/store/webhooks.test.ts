import { describe, expect, it } from 'vitest';
import { signWebhook, webhookHeaders } from '../../src/sandbox/store/webhooks.js';
import { createWebhookVerifier } from '../../src/store/webhooks.js';
import { SHOP, silentLogger, WEBHOOK_SECRET } from './helpers.js';

const body = JSON.stringify({ id: 5551234, admin_graphql_api_id: 'gid://shopify/Order/5551234' });

/** Headers as Node/Fastify hand them over: lower-case names. */
function signedHeaders(overrides: Record<string, string | undefined> = {}) {
  const headers = webhookHeaders({
    topic: 'orders/create',
    shop: SHOP,
    secret: WEBHOOK_SECRET,
    apiVersion: '2026-07',
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
  logger: silentLogger,
});

describe('verifyWebhook', () => {
  it('accepts a delivery signed with the webhook secret and reads its headers', async () => {
    await expect(verify(body, signedHeaders())).resolves.toEqual({
      valid: true,
      topic: 'orders/create',
      shop: SHOP,
      webhookId: 'wh-1',
      eventId: 'ev-1',
      apiVersion: '2026-07',
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
