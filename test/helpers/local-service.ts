import { afterEach } from 'vitest';
import { loadConfig } from '../../config/index.js';
import { freePort } from '../../src/demo/free-port.js';
import { DEMO_SHOP, DEMO_WEBHOOK_SECRET, demoEnv } from '../../src/demo/settings.js';
import { startPartnerSandbox } from '../../src/sandbox/partner/index.js';
import { startFakeStore } from '../../src/sandbox/store/index.js';
import { type RunningService, startService } from '../../src/service.js';
import { capturingLogger } from '../store/helpers.js';
import { dropKeys, REDIS_URL, testRedis, uniquePrefix } from './redis.js';

/**
 * The connector as `connector start` runs it (startService from a parsed configuration), against
 * a partner sandbox and a fake store of its own, logging into a buffer. Closed after each test.
 */
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers.length = 0;
});

/**
 * A partner sandbox and a fake store of their own, a key prefix dropped after the test, and the
 * environment `connector start` needs to use them (with a partner token of its own: the budget is
 * keyed by token and shared by every process using it). Closed after each test.
 */
export async function startLocalApis(options: {
  name: string;
  partnerPath?: string;
  storeToken?: string;
  logLevel?: string;
}) {
  const sandbox = await startPartnerSandbox({});
  closers.push(() => sandbox.close());
  const store = await startFakeStore({
    shop: DEMO_SHOP,
    accessToken: 'shpat_the_real_one',
    webhookSecret: DEMO_WEBHOOK_SECRET,
  });
  closers.push(() => store.close());
  const prefix = uniquePrefix(options.name);
  const redis = testRedis();
  closers.push(async () => {
    await dropKeys(redis, prefix);
    await redis.quit();
  });
  const origin = new URL(sandbox.url).origin;
  const port = await freePort('127.0.0.1');
  const env = {
    ...demoEnv({
      redisUrl: REDIS_URL,
      prefix,
      port,
      partnerUrl: `${origin}${options.partnerPath ?? '/api/v1'}`,
      partnerToken: sandbox.issueToken('demo@sandbox.local', `${options.name}-${prefix}`),
      storeUrl: store.url,
    }),
    // The store's own token, unless the test configures the connector with another.
    SHOPIFY_ACCESS_TOKEN: options.storeToken ?? 'shpat_the_real_one',
    LOG_LEVEL: options.logLevel ?? 'info',
  };
  return { sandbox, store, prefix, port, env };
}

export async function startLocalService(
  options: { partnerPath?: string; storeToken?: string; logLevel?: string } = {},
) {
  const { sandbox, store, prefix, env } = await startLocalApis({
    name: 'start-checks',
    ...options,
  });
  const { logger, lines } = capturingLogger(options.logLevel);
  const service: RunningService = await startService(loadConfig(env), { logger });
  closers.push(() => service.close());
  const status = async () => (await fetch(`${service.url}/status`)).json() as Promise<StatusBody>;
  return { sandbox, store, service, lines, status, prefix };
}

export interface StatusBody {
  partner: { status: string; problems: string[] };
  shopify: { status: string; problems: string[] };
}

export async function until<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
