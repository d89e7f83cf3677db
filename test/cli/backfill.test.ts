import { afterAll, describe, expect, it } from 'vitest';
import { listStaffActions } from '../../src/records/audit-trail.js';
import { fixtureOrders } from '../../src/sandbox/store/fixtures/index.js';
import type { FakeStore } from '../../src/sandbox/store/index.js';
import { runConnector } from '../helpers/connector-cli.js';
import {
  ACCESS_TOKEN,
  allJobs,
  intakeParts,
  SHOP,
  startStore,
  WEBHOOK_SECRET,
} from '../helpers/intake.js';
import { REDIS_URL, testRedis, uniquePrefix } from '../helpers/redis.js';

const redis = testRedis();
const cleanups: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  await redis.quit();
});

/** Everything the configuration requires, pointed at the fake store and a prefix of its own. */
function connectorEnv(store: FakeStore, prefix: string): Record<string, string> {
  return {
    LOG_LEVEL: 'warn',
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    // Never called by a backfill; required by the configuration.
    PARTNER_API_URL: 'http://127.0.0.1:9/api/v1',
    PARTNER_API_TOKEN: 'unused',
    SHOPIFY_SHOP: SHOP,
    SHOPIFY_ACCESS_TOKEN: ACCESS_TOKEN,
    SHOPIFY_WEBHOOK_SECRET: WEBHOOK_SECRET,
    SHOPIFY_ADMIN_API_URL: store.url,
    SENDER_NAME: 'Lager',
    SENDER_PHONE: '+4570000000',
    SENDER_STREET: 'Industrivej 1',
    SENDER_CITY: 'Vejle',
    SENDER_POSTAL_CODE: '7100',
    SENDER_COUNTRY_CODE: 'DK',
    // The defaults, whatever the environment running the tests holds (empty means unset).
    ELIGIBLE_FINANCIAL_STATUSES: '',
    SKIP_TEST_ORDERS: '',
    INCLUDE_TAGS: '',
    EXCLUDE_TAGS: '',
    SHOPIFY_CLIENT_ID: '',
    SHOPIFY_CLIENT_SECRET: '',
  };
}

/** The fixture orders 5550001–5550007 (all created 2026-11-20), and two later ones. */
async function storeWithOrders() {
  const store = await startStore({
    orders: [
      ...fixtureOrders(),
      { id: '5550008', createdAt: '2026-11-21T09:00:00Z', updatedAt: '2026-11-21T09:00:00Z' },
      { id: '5550009', createdAt: '2026-11-22T00:00:00Z', updatedAt: '2026-11-22T00:00:00Z' },
    ],
  });
  cleanups.push(() => store.close());
  return store;
}

function partsFor(name: string) {
  const parts = intakeParts(redis, uniquePrefix(name));
  cleanups.push(async () => {
    await Promise.all([
      parts.queues.createShipment.obliterate({ force: true }),
      parts.queues.markOrder.obliterate({ force: true }),
    ]);
    const keys = await redis.keys(`${parts.prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await Promise.all(Object.values(parts.queues).map((q) => q.close()));
  });
  return parts;
}

async function queuedOrders(parts: ReturnType<typeof partsFor>) {
  const jobs = await allJobs(parts.queues.createShipment);
  return Object.fromEntries(jobs.map((j) => [j.id, j.data.source])) as Record<string, string>;
}

describe('connector backfill (child process)', () => {
  it('queues the eligible unregistered orders of the period, flags a cancelled registered one and prints the summary', async () => {
    const store = await storeWithOrders();
    const parts = partsFor('backfill');
    const registration = {
      orderNumber: 'PS-9',
      status: 'created',
      createdAt: '2026-11-20T10:00:00+01:00',
    };
    await parts.records.markRegistered('5550001', registration);
    await parts.records.markRegistered('5550007', registration);

    const run = await runConnector(
      ['backfill', '--since', '2026-11-01', '--until', '2026-11-21'],
      connectorEnv(store, parts.prefix),
    );

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // The summary is the last line; the warning about 5550007 is logged before it.
    expect(run.stdout.trim().split('\n').at(-1)).toBe(
      'Backfill done: 8 orders seen: 4 queued, 2 not eligible, 1 already registered, 0 already queued, 1 flagged as cancelled after registration.',
    );
    // Every order seen is counted once.
    const counts = [...run.stdout.matchAll(/(\d+) (?!orders)/g)].map((m) => Number(m[1]));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(8);
    // 5550001 is registered, 5550005 unpaid, 5550006 a test order, 5550009 created after --until.
    expect(await queuedOrders(parts)).toEqual({
      'order-5550002': 'backfill',
      'order-5550003': 'backfill',
      'order-5550004': 'backfill',
      'order-5550008': 'backfill',
    });
    expect(await parts.records.get('5550005')).toMatchObject({
      state: 'skipped',
      skipCode: 'not_paid',
    });
    expect(await parts.records.get('5550006')).toMatchObject({
      state: 'skipped',
      skipCode: 'test',
    });
    expect((await allJobs(parts.queues.markOrder)).map((j) => j.id)).toEqual([
      'cancelled-after-registration-5550007',
    ]);
  });

  it('takes an --until timestamp as the last moment, not as the whole day', async () => {
    const store = await storeWithOrders();
    const parts = partsFor('backfill-until');

    const run = await runConnector(
      ['backfill', '--since', '2026-11-20', '--until', '2026-11-20T10:30:00Z'],
      connectorEnv(store, parts.prefix),
    );

    expect(run.code).toBe(0);
    // Created 08:00, 09:00 and 10:00; everything later is left out.
    expect(run.stdout).toContain('Backfill done: 3 orders seen: 3 queued, 0 not eligible');
    expect(Object.keys(await queuedOrders(parts)).sort()).toEqual([
      'order-5550001',
      'order-5550002',
      'order-5550003',
    ]);
  });

  it('exits 69 with one line saying why when Shopify cannot be read, and tells and records what it did', async () => {
    const store = await storeWithOrders();
    const parts = partsFor('backfill-unreadable');
    await store.close();

    const run = await runConnector(['backfill', '--since', '2026-11-01'], {
      ...connectorEnv(store, parts.prefix),
      LOG_LEVEL: 'fatal',
    });

    expect(run.code).toBe(69);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Could not read Shopify \(what was queued stays queued; the same backfill run again queues the rest\): \S/,
      ),
    ]);
    expect(run.stdout).not.toContain('Backfill done');
    expect(run.stdout).toContain('Backfill stopped: 0 orders seen: 0 queued');
    expect(await listStaffActions(redis, parts.prefix)).toMatchObject([
      {
        action: 'backfill',
        count: 0,
        detail: 'orders since 2026-11-01T00:00:00.000Z, stopped: Shopify could not be read',
      },
    ]);
  });

  it('exits 78 and names what is missing when the configuration is incomplete', async () => {
    const store = await storeWithOrders();
    const parts = partsFor('backfill-config');

    const run = await runConnector(['backfill', '--since', '2026-11-01'], {
      ...connectorEnv(store, parts.prefix),
      SHOPIFY_SHOP: '',
    });

    expect(run.code).toBe(78);
    expect(run.stderr).toContain('SHOPIFY_SHOP is required');
    expect(await queuedOrders(parts)).toEqual({});
  });
});
