import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/index.js';
import { startHttpSide } from '../../src/compose/http-side.js';
import { freePort } from '../../src/demo/free-port.js';
import { ConnectorMetrics } from '../../src/metrics/registry.js';
import { startService } from '../../src/service.js';
import { intakeParts, SHOP, silentLogger, WEBHOOK_SECRET } from '../helpers/intake.js';
import { dropKeys, REDIS_URL, testRedis, uniquePrefix } from '../helpers/redis.js';

const TOKEN = 'a-scrape-token-of-some-length';
const LOGIN = { ADMIN_USER: 'ops', ADMIN_PASSWORD: 'a-long-admin-password' };

/** What the configuration needs besides the HTTP settings under test. */
const REQUIRED = {
  PARTNER_API_URL: 'http://127.0.0.1:9/api/v1',
  PARTNER_API_TOKEN: 'tok',
  SHOPIFY_SHOP: SHOP,
  SHOPIFY_ACCESS_TOKEN: 'shpat_x',
  SHOPIFY_WEBHOOK_SECRET: WEBHOOK_SECRET,
  SENDER_NAME: 'Warehouse',
  SENDER_PHONE: '+4511111111',
  SENDER_STREET: 'Lagervej 1',
  SENDER_CITY: 'Kolding',
  SENDER_POSTAL_CODE: '6000',
  SENDER_COUNTRY_CODE: 'DK',
};

const closers: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The HTTP side as `connector start` runs it, with these settings, on free ports. */
async function startHttp(env: Record<string, string>) {
  const port = await freePort('127.0.0.1');
  const config = loadConfig({ ...REQUIRED, REDIS_URL, PORT: String(port), ...env });
  const redis = testRedis();
  const parts = intakeParts(redis, uniquePrefix('admin-surface'));
  closers.push(async () => {
    await parts.close();
    await dropKeys(redis, parts.prefix);
    await redis.quit();
  });
  const { server } = await startHttpSide(config, {
    parts,
    redis,
    metrics: new ConnectorMetrics({ logger: silentLogger, processMetrics: false }),
    logger: silentLogger,
  });
  closers.push(() => server.close());
  return {
    server,
    /** Whatever HOST says, the tests reach both listeners over loopback. */
    public: `http://127.0.0.1:${port}`,
    admin: config.adminListener ? `http://127.0.0.1:${config.adminListener.port}` : undefined,
  };
}

async function statusOf(url: string, init: RequestInit = {}): Promise<number> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  await response.arrayBuffer();
  return response.status;
}

const ADMIN_PATHS = ['/metrics', '/status', '/status/partner', '/admin/queues'];

describe('a listener of its own for /metrics, /status and Bull Board (ADMIN_PORT)', () => {
  it('serves them there, and only the webhooks, /healthz and /readyz on the webhook port', async () => {
    const adminPort = await freePort('127.0.0.1');
    const http = await startHttp({ HOST: '0.0.0.0', ADMIN_PORT: String(adminPort), ...LOGIN });

    for (const path of ADMIN_PATHS)
      expect([path, await statusOf(`${http.public}${path}`)]).toEqual([path, 404]);
    expect(await statusOf(`${http.public}/healthz`)).toBe(200);
    expect(await statusOf(`${http.public}/readyz`)).toBe(200);
    // Unsigned: refused by the route, which is there.
    expect(await statusOf(`${http.public}/webhooks/shopify`, { method: 'POST', body: '{}' })).toBe(
      401,
    );

    expect(await statusOf(`${http.admin}/metrics`)).toBe(200);
    expect(await statusOf(`${http.admin}/status`)).toBe(200);
    expect(await statusOf(`${http.admin}/status/partner`)).toBe(200);
    // The board keeps its own login.
    expect(await statusOf(`${http.admin}/admin/queues`)).toBe(401);
    expect(await statusOf(`${http.admin}/webhooks/shopify`, { method: 'POST', body: '{}' })).toBe(
      404,
    );
  });

  it('closes with the webhook port', async () => {
    const adminPort = await freePort('127.0.0.1');
    const http = await startHttp({ ADMIN_PORT: String(adminPort) });
    expect(await statusOf(`${http.admin}/metrics`)).toBe(200);

    await http.server.close();

    await expect(fetch(`${http.admin}/metrics`)).rejects.toThrow();
  });

  it('asks for METRICS_TOKEN there too when it is set', async () => {
    const adminPort = await freePort('127.0.0.1');
    const http = await startHttp({ ADMIN_PORT: String(adminPort), METRICS_TOKEN: TOKEN });

    expect(await statusOf(`${http.admin}/status`)).toBe(401);
    expect(await statusOf(`${http.admin}/metrics`)).toBe(401);
    const authorization = `Bearer ${TOKEN}`;
    expect(await statusOf(`${http.admin}/status`, { headers: { authorization } })).toBe(200);
    expect(await statusOf(`${http.admin}/metrics`, { headers: { authorization } })).toBe(200);
  });
});

describe('/metrics and /status on the webhook port', () => {
  it('refuse a request without METRICS_TOKEN when the port is bound beyond loopback', async () => {
    const http = await startHttp({ HOST: '0.0.0.0', METRICS_TOKEN: TOKEN });

    for (const path of ['/metrics', '/status', '/status/partner']) {
      const response = await fetch(`${http.public}${path}`, {
        headers: { authorization: 'Bearer another-token-entirely' },
      });
      expect([path, response.status]).toEqual([path, 401]);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="connector"');
      expect(await response.json()).toEqual({
        error: 'a valid bearer token (METRICS_TOKEN) is required',
      });
      expect(await statusOf(`${http.public}${path}`)).toBe(401);
    }
    const authorization = `Bearer ${TOKEN}`;
    expect(await statusOf(`${http.public}/status`, { headers: { authorization } })).toBe(200);
    expect(await statusOf(`${http.public}/metrics`, { headers: { authorization } })).toBe(200);
    // What faces the internet anyway stays open.
    expect(await statusOf(`${http.public}/readyz`)).toBe(200);
    expect(await statusOf(`${http.public}/healthz`)).toBe(200);
  });

  it('answer without a token on a port bound to loopback only', async () => {
    const http = await startHttp({ HOST: '127.0.0.1' });

    expect(await statusOf(`${http.public}/status`)).toBe(200);
    expect(await statusOf(`${http.public}/metrics`)).toBe(200);
  });

  it('keep the service from starting, saying why, when they would be open beyond loopback', async () => {
    const config = loadConfig({ ...REQUIRED, HOST: '0.0.0.0' });

    const start = startService(config, { logger: silentLogger });

    await expect(start).rejects.toBeInstanceOf(ConfigError);
    await expect(start).rejects.toThrow(/HOST 0\.0\.0\.0 opens \/metrics and \/status to anyone/);
  });
});
