import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FakeStore } from '../../src/sandbox/store/index.js';
import { StoreAuthError } from '../../src/store/errors.js';
import {
  FAKE_CLIENT_ID,
  FAKE_CLIENT_SECRET,
  recordingSleep,
  startTestStore,
  testClient,
} from './helpers.js';

// The transport every capability sends through, exercised with GetOrder.

describe('the transport against the fake store, throttling and auth', () => {
  let store: FakeStore;
  beforeAll(async () => {
    store = await startTestStore();
  });
  afterAll(() => store.close());

  it('waits out THROTTLED answers for the bucket refill and then succeeds', async () => {
    store.throttleNext(2, { currentlyAvailable: 4, restoreRate: 1000 });
    const { waits, sleep } = recordingSleep();
    const before = store.requests.length;

    const order = await testClient({ adminApiUrl: store.url, sleep }).getOrder('5550001');

    expect(order?.id).toBe('5550001');
    // requested 10, available 4, 1000 points/s → 6 ms
    expect(waits).toEqual([6, 6]);
    expect(store.requests.slice(before).map((r) => r.outcome)).toEqual([
      'throttled',
      'throttled',
      'ok',
    ]);
  });

  it('really sleeps the small wait when no sleep is injected', async () => {
    store.throttleNext(1, { currentlyAvailable: 0, restoreRate: 500 });
    const started = Date.now();
    await testClient({ adminApiUrl: store.url, sleep: undefined }).getOrder('5550001');
    expect(Date.now() - started).toBeGreaterThanOrEqual(19); // 10 points at 500/s
  });

  it('waits Retry-After after HTTP 429 and then succeeds', async () => {
    store.rateLimitNext(1, { retryAfterSeconds: 0.02 });
    const { waits, sleep } = recordingSleep();
    const order = await testClient({ adminApiUrl: store.url, sleep }).getOrder('5550002');
    expect(order?.id).toBe('5550002');
    expect(waits).toEqual([20]);
  });

  it('refuses a wrong fixed token with StoreAuthError', async () => {
    const wrong = testClient({
      adminApiUrl: store.url,
      auth: { kind: 'accessToken', accessToken: 'shpat_wrong' },
    });
    await expect(wrong.getOrder('5550001')).rejects.toBeInstanceOf(StoreAuthError);
  });
});

describe('the transport against the fake store, client credentials', () => {
  let store: FakeStore;
  beforeAll(async () => {
    store = await startTestStore();
  });
  afterAll(() => store.close());
  afterEach(() => store.revokeTokens());

  const ccClient = () =>
    testClient({
      adminApiUrl: store.url,
      auth: {
        kind: 'clientCredentials',
        clientId: FAKE_CLIENT_ID,
        clientSecret: FAKE_CLIENT_SECRET,
      },
    });

  it('gets one token from the store and uses it for every request', async () => {
    const before = store.tokenRequests;
    const client = ccClient();
    await Promise.all([client.getOrder('5550001'), client.getOrder('5550002')]);
    await client.getOrder('5550003');
    expect(store.tokenRequests - before).toBe(1);
  });

  it('gets a new token after the store stops accepting the old one, and retries', async () => {
    const client = ccClient();
    await client.getOrder('5550001');
    const before = store.tokenRequests;
    store.revokeTokens();

    const order = await client.getOrder('5550001');

    expect(order?.id).toBe('5550001');
    expect(store.tokenRequests - before).toBe(1);
    expect(store.requests.slice(-2).map((r) => r.outcome)).toEqual(['unauthorized', 'ok']);
  });

  it('reports wrong client credentials as StoreAuthError', async () => {
    const client = testClient({
      adminApiUrl: store.url,
      auth: { kind: 'clientCredentials', clientId: FAKE_CLIENT_ID, clientSecret: 'wrong' },
    });
    await expect(client.getOrder('5550001')).rejects.toBeInstanceOf(StoreAuthError);
  });
});
