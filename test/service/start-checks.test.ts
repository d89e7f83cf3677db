import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.js';
import { freePort } from '../../src/demo/free-port.js';
import { DEMO_SHOP, DEMO_WEBHOOK_SECRET, demoEnv } from '../../src/demo/settings.js';
import { startPartnerSandbox } from '../../src/sandbox/partner/index.js';
import { startFakeStore } from '../../src/sandbox/store/index.js';
import { type RunningService, startService } from '../../src/service.js';
import { dropKeys, REDIS_URL, testRedis, uniquePrefix } from '../helpers/redis.js';
import { capturingLogger } from '../store/helpers.js';

/**
 * What `connector start` checks before any order depends on it: the partner token and address
 * (one `GET /shipments?per_page=1` from the shared budget) and Shopify access (`shop { name }`),
 * each refusal named with the variable to fix, in the log and in /status.
 */

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers.length = 0;
});

async function start(options: { partnerPath: string; storeToken: string }) {
  const sandbox = await startPartnerSandbox({});
  closers.push(() => sandbox.close());
  const store = await startFakeStore({
    shop: DEMO_SHOP,
    accessToken: 'shpat_the_real_one',
    webhookSecret: DEMO_WEBHOOK_SECRET,
  });
  closers.push(() => store.close());
  const prefix = uniquePrefix('start-checks');
  const redis = testRedis();
  closers.push(async () => {
    await dropKeys(redis, prefix);
    await redis.quit();
  });
  const origin = new URL(sandbox.url).origin;
  const env = {
    ...demoEnv({
      redisUrl: REDIS_URL,
      prefix,
      port: await freePort('127.0.0.1'),
      partnerUrl: `${origin}${options.partnerPath}`,
      partnerToken: 'sbx_demo_token',
      storeUrl: store.url,
    }),
    SHOPIFY_ACCESS_TOKEN: options.storeToken,
    LOG_LEVEL: 'info',
  };
  const { logger, lines } = capturingLogger();
  const service: RunningService = await startService(loadConfig(env), { logger });
  closers.push(() => service.close());
  const status = async () => (await fetch(`${service.url}/status`)).json() as Promise<StatusBody>;
  return { sandbox, store, service, lines, status };
}

interface StatusBody {
  partner: { status: string; problems: string[] };
  shopify: { status: string; problems: string[] };
}

async function until<T>(check: () => Promise<T | undefined | false>, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('checks at start', () => {
  it('spends one request of the budget on the token when everything is right, and says Shopify is fine', async () => {
    const s = await start({ partnerPath: '/api/v1', storeToken: 'shpat_the_real_one' });

    const listed = s.sandbox.requests.filter((r) => r.path === '/api/v1/shipments');
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
    const s = await start({ partnerPath: '', storeToken: 'shpat_the_real_one' });

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
    const s = await start({ partnerPath: '/api/v1', storeToken: 'shpat_revoked' });

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
