import { afterEach, describe, expect, it } from 'vitest';
import { StoreHealth } from '../../src/records/store-health.js';
import { StoreAuthError } from '../../src/store/errors.js';
import { intakeOnTestRedis, startIntake, startStore, storeClient } from '../helpers/intake.js';
import { waitUntil as waitFor } from '../helpers/shipment-stack.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setup(name: string) {
  const parts = await intakeOnTestRedis(name);
  closers.push(() => parts.close());
  const fakeStore = await startStore();
  closers.push(() => fakeStore.close());
  const clock = { now: Date.parse('2026-11-22T10:00:00Z') };
  const health = new StoreHealth(parts.redis, parts.prefix, () => clock.now);
  const client = (overrides: Parameters<typeof storeClient>[1] = {}) =>
    storeClient(fakeStore.url, { onOutcome: (outcome) => health.report(outcome), ...overrides });
  return { parts, fakeStore, health, clock, client };
}

describe('StoreHealth, fed by the real Admin client', () => {
  it('is unknown before any request', async () => {
    const { health } = await setup('store-health-unknown');
    expect(await health.read()).toEqual({ status: 'unknown', since: null, reason: null });
  });

  it('says access is refused, naming the settings to check, then ok once a request succeeds', async () => {
    const { health, clock, client } = await setup('store-health-auth');

    const refused = await client({ auth: { kind: 'accessToken', accessToken: 'shpat_revoked' } })
      .getOrder('5550001')
      .catch((e) => e);
    expect(refused).toBeInstanceOf(StoreAuthError);
    const report = await waitFor(async () => {
      const read = await health.read();
      return read.status === 'access_refused' ? read : undefined;
    });
    expect(report.since).toBe('2026-11-22T10:00:00.000Z');
    expect(report.reason).toContain('SHOPIFY_ACCESS_TOKEN');
    expect(report.reason).not.toContain('shpat_');

    clock.now += 5_000;
    await client().getOrder('5550001');
    await waitFor(async () => (await health.read()).status === 'ok', { what: 'ok' });
    expect(await health.read()).toEqual({
      status: 'ok',
      since: '2026-11-22T10:00:05.000Z',
      reason: null,
    });
  });

  it('says Shopify keeps throttling', async () => {
    const { health, fakeStore, client } = await setup('store-health-throttle');
    fakeStore.rateLimitNext(1);

    await client({ maxThrottleWaits: 0 })
      .getOrder('5550001')
      .catch(() => {});

    await waitFor(async () => (await health.read()).status === 'throttled', { what: 'throttled' });
  });
});

describe('/status', () => {
  it('reports what the workers last saw of Shopify', async () => {
    const intake = await startIntake({ name: 'status-shopify' });
    closers.push(() => intake.close());
    const health = new StoreHealth(intake.redis, intake.prefix);
    health.report({
      ok: false,
      error: new StoreAuthError('Shopify refused the access token (401) on GetOrder.', {
        status: 401,
      }),
    });

    const shopify = await waitFor(async () => {
      const response = await fetch(`${intake.url}/status`);
      const body = (await response.json()) as { shopify: { status: string; problems: string[] } };
      return body.shopify.status === 'access_refused' ? body.shopify : undefined;
    });

    expect(shopify.problems).toEqual([
      expect.stringContaining('Shopify refused the access token (401) on GetOrder.'),
    ]);
  });
});
