import { describe, expect, it } from 'vitest';
import { startLocalService, until } from '../helpers/local-service.js';

/**
 * What `connector start` checks before any order depends on it: the partner token and address
 * (one `GET /shipments?per_page=1` from the shared budget) and Shopify access (`shop { name }`),
 * each refusal named with the variable to fix, in the log and in /status.
 */

describe('checks at start', () => {
  it('spends one request of the budget on the token when everything is right, and says Shopify is fine', async () => {
    const s = await startLocalService({ partnerPath: '/api/v1', storeToken: 'shpat_the_real_one' });

    // The sync's first run, which starts at once, may list shipments too: it pages by creation time.
    const listed = s.sandbox.requests.filter(
      (r) => r.path === '/api/v1/shipments' && !r.query.includes('created_after'),
    );
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ method: 'GET', status: 200 });
    const body = await until(async () => {
      const b = await s.status();
      return b.shopify.status === 'ok' && b;
    }, 'the Shopify check');
    expect(body.partner.status).toBe('ok');
    expect(s.lines()).toContain('Shopify accepts the access token');
    expect((await fetch(`${s.service.url}/status/partner`)).status).toBe(200);
  });

  it('names a PARTNER_API_URL without /api/v1 as misconfigured, pauses the partner queues, and fails the health endpoint', async () => {
    const s = await startLocalService({ partnerPath: '', storeToken: 'shpat_the_real_one' });

    const body = await s.status();
    expect(body.partner.status).toBe('url_misconfigured');
    expect(body.partner.problems[0]).toMatch(/PARTNER_API_URL is misconfigured.*\/api\/v1/);
    expect(body.partner.problems[0]).not.toMatch(/no such shipment/);
    expect(s.lines()).toMatch(/PARTNER_API_URL is misconfigured/);

    const health = await fetch(`${s.service.url}/status/partner`);
    expect(health.status).toBe(503);
    expect(((await health.json()) as { status: string }).status).toBe('url_misconfigured');
    // Intake does not depend on the partner: still ready.
    expect((await fetch(`${s.service.url}/readyz`)).status).toBe(200);
  });

  it('names a refused Shopify token with the variable to fix, in the log and in /status', async () => {
    const s = await startLocalService({ partnerPath: '/api/v1', storeToken: 'shpat_revoked' });

    const body = await until(async () => {
      const b = await s.status();
      return b.shopify.status === 'access_refused' && b;
    }, 'the Shopify check');
    expect(body.shopify.problems[0]).toContain('SHOPIFY_ACCESS_TOKEN');
    await until(
      async () => s.lines().includes('Shopify refused the access token at start'),
      'the log line',
    );
    expect(s.lines()).toMatch(/Shopify refused the access token at start.*SHOPIFY_ACCESS_TOKEN/);
  });
});
