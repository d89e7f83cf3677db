import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import {
  StoreAuthError,
  StoreBudgetWaitError,
  StoreRequestError,
  StoreThrottledError,
} from '../../src/store/errors.js';
import { withStorePriority } from '../../src/store/transport/priority.js';
import {
  type SharedBucketOptions,
  SharedStoreBucket,
} from '../../src/store/transport/shared-bucket.js';
import { dropKeys, testRedis, uniquePrefix } from '../helpers/redis.js';
import {
  ACCESS_TOKEN,
  capturingLogger,
  GRAPHQL_PATH,
  orderNode,
  recordingSleep,
  SHOP_ORIGIN,
  testClient,
  throttledBody,
} from './helpers.js';
import { answer } from './nock-graphql.js';

// The transport every capability sends through, exercised with GetOrder.

afterEach(() => {
  nock.cleanAll();
});

describe('throttling', () => {
  it('waits out a THROTTLED answer for as long as the bucket needs, then succeeds', async () => {
    const { waits, sleep } = recordingSleep();
    answer(throttledBody({ requested: 52, available: 12, restoreRate: 100 }));
    answer({ data: { order: orderNode() } });

    const order = await testClient({ sleep }).getOrder('5551234');

    expect(order?.id).toBe('5551234');
    // (52 - 12) points at 100 points/s
    expect(waits).toEqual([400]);
  });

  it('really sleeps when no sleep is injected (small restore-rate wait)', async () => {
    answer(throttledBody({ requested: 10, available: 0, restoreRate: 1000 }));
    answer({ data: { order: orderNode() } });
    const started = Date.now();
    await expect(testClient({ sleep: undefined }).getOrder('5551234')).resolves.not.toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(9);
  });

  it('waits Retry-After seconds (not milliseconds) after HTTP 429, then succeeds', async () => {
    const { waits, sleep } = recordingSleep();
    nock(SHOP_ORIGIN).post(GRAPHQL_PATH).reply(429, 'Too Many Requests', { 'Retry-After': '2.0' });
    answer({ data: { order: orderNode() } });

    await expect(testClient({ sleep }).getOrder('5551234')).resolves.not.toBeNull();
    expect(waits).toEqual([2000]);
  });

  it('waits a default second after a 429 without Retry-After', async () => {
    const { waits, sleep } = recordingSleep();
    nock(SHOP_ORIGIN).post(GRAPHQL_PATH).reply(429, '');
    answer({ data: { order: orderNode() } });
    await testClient({ sleep }).getOrder('5551234');
    expect(waits).toEqual([1000]);
  });

  it('gives up with StoreThrottledError after the allowed number of waits', async () => {
    const { waits, sleep } = recordingSleep();
    const scope = nock(SHOP_ORIGIN)
      .post(GRAPHQL_PATH)
      .times(3)
      .reply(200, throttledBody({ requested: 10, available: 0, restoreRate: 100 }));

    const error = await testClient({ sleep, maxThrottleWaits: 2 })
      .getOrder('5551234')
      .catch((e) => e);

    expect(error).toBeInstanceOf(StoreThrottledError);
    expect(error).toMatchObject({ waits: 2, operation: 'GetOrder', lastWaitMs: 100 });
    expect(waits).toEqual([100, 100]);
    expect(scope.isDone()).toBe(true);
  });
});

describe('throttling with the bucket shared by every process', () => {
  /**
   * The shared bucket on real Redis, its clock moved only by the client's sleeps: what refills
   * is what the waits logged allow.
   */
  async function withBucket(
    test: (bucket: SharedStoreBucket, clock: { now: number }) => Promise<void>,
    options: Partial<SharedBucketOptions> = {},
  ) {
    const redis = testRedis();
    const prefix = uniquePrefix('throttle-log');
    const clock = { now: 1_000_000 };
    try {
      await test(
        new SharedStoreBucket(redis, {
          prefix,
          shop: 'demo.myshopify.com',
          reserveShare: 0.2,
          clock: () => clock.now,
          ...options,
        }),
        clock,
      );
    } finally {
      await dropKeys(redis, prefix);
      await redis.quit();
    }
  }
  const logged = (lines: string) =>
    lines
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg: string; waitMs?: number })
      .filter((line) => line.msg.startsWith('Shopify throttled the request'));

  it('logs the wait it makes: the shared bucket’s, told Shopify’s empty bucket, not Shopify’s own figure', async () => {
    await withBucket(async (bucket, clock) => {
      const { waits, sleep } = recordingSleep();
      const { logger, lines } = capturingLogger('info');
      answer(throttledBody({ requested: 264, available: 0, restoreRate: 100 }));
      answer({ data: { order: orderNode() } });

      await testClient({
        sleep: async (ms) => {
          clock.now += ms;
          await sleep(ms);
        },
        logger,
        bucket,
      }).getOrder('5551234');

      // Shopify alone would ask GetOrder's 264 points / 100 a second = 2,640 ms. The
      // connector's share (80 %) waits until the reserve (400 of 2,000) and the 264 points are
      // back at 80 a second: 8,300 ms, slept once, and that is the figure logged.
      expect(waits).toEqual([8_300]);
      expect(logged(lines()).map((line) => line.waitMs)).toEqual([8_300]);
    });
  });

  it('books the requests of follow-up work ahead of the registrations waiting', async () => {
    /** The wait of a GetOrder sent as `priority` when the bucket is empty and 100 points booked. */
    async function waitBehindBooking(priority?: 'follow-up'): Promise<number[]> {
      const { waits, sleep } = recordingSleep();
      await withBucket(
        async (bucket, clock) => {
          await bucket.take({ cost: 1000, operation: 'Earlier' }, 0);
          await bucket.take({ cost: 100, operation: 'WriteOrderMarks' }, 60_000);
          answer({ data: { order: orderNode() } });
          const client = testClient({
            sleep: async (ms) => {
              clock.now += ms;
              await sleep(ms);
            },
            bucket,
          });
          const read = () => client.getOrder('5551234');
          await (priority ? withStorePriority(priority, read) : read());
        },
        { reserveShare: 0, followUpReserve: 0.8 },
      );
      return waits;
    }
    const inTurn = await waitBehindBooking();
    const ahead = await waitBehindBooking('follow-up');
    expect(inTurn).toHaveLength(1);
    // The 100 points booked take 1 s to refill: a follow-up does not wait for them.
    expect(ahead).toEqual([inTurn[0]! - 1_000]);
  });

  it('logs the wait the job is handed back for when it is too long to wait in the worker', async () => {
    await withBucket(async (bucket) => {
      const { waits, sleep } = recordingSleep();
      const { logger, lines } = capturingLogger('info');
      answer(throttledBody({ requested: 264, available: 0, restoreRate: 100 }));

      const error = await testClient({ sleep, logger, bucket, maxBudgetWaitMs: 5_000 })
        .getOrder('5551234')
        .catch((e) => e);

      expect(error).toBeInstanceOf(StoreBudgetWaitError);
      expect(error.waitMs).toBe(8_300);
      expect(waits).toEqual([]);
      expect(logged(lines())).toMatchObject([
        {
          msg: 'Shopify throttled the request; the job goes back to its queue for the wait',
          waitMs: 8_300,
        },
      ]);
    });
  });
});

describe('failures', () => {
  it('maps 401 to StoreAuthError without retrying a fixed token', async () => {
    const scope = nock(SHOP_ORIGIN)
      .post(GRAPHQL_PATH)
      .reply(401, { errors: '[API] Invalid API key or access token' });
    const error = await testClient()
      .getOrder('1')
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreAuthError);
    expect(error.status).toBe(401);
    expect(scope.isDone()).toBe(true);
  });

  it('maps 403 and ACCESS_DENIED to StoreAuthError', async () => {
    nock(SHOP_ORIGIN).post(GRAPHQL_PATH).reply(403, { errors: 'Forbidden' });
    await expect(testClient().getOrder('1')).rejects.toBeInstanceOf(StoreAuthError);
    answer({
      errors: [
        {
          message: 'Access denied for order field. Required access: `read_orders` access scope.',
          extensions: { code: 'ACCESS_DENIED' },
        },
      ],
      data: { order: null },
    });
    await expect(testClient().getOrder('1')).rejects.toBeInstanceOf(StoreAuthError);
  });

  it('maps 5xx and network failures to a retryable StoreRequestError', async () => {
    nock(SHOP_ORIGIN).post(GRAPHQL_PATH).reply(502, 'Bad Gateway');
    const server = await testClient()
      .getOrder('1')
      .catch((e) => e);
    expect(server).toBeInstanceOf(StoreRequestError);
    expect(server).toMatchObject({ status: 502, retryable: true });

    nock(SHOP_ORIGIN).post(GRAPHQL_PATH).replyWithError('socket hang up');
    const network = await testClient()
      .getOrder('1')
      .catch((e) => e);
    expect(network).toBeInstanceOf(StoreRequestError);
    expect(network.retryable).toBe(true);
  });

  it('maps a GraphQL error to a non-retryable StoreRequestError', async () => {
    answer({ errors: [{ message: "Field 'nope' doesn't exist on type 'Order'" }] });
    const error = await testClient()
      .getOrder('1')
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreRequestError);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("Field 'nope' doesn't exist");
  });

  it('maps a body that is not JSON, or not the expected shape, to StoreRequestError', async () => {
    nock(SHOP_ORIGIN)
      .post(GRAPHQL_PATH)
      .reply(200, '<html>oops</html>', { 'Content-Type': 'text/html' });
    await expect(testClient().getOrder('1')).rejects.toBeInstanceOf(StoreRequestError);

    answer({ data: { order: { id: 'gid://shopify/Order/1' } } });
    const error = await testClient()
      .getOrder('1')
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreRequestError);
    expect(error.message).toMatch(/unexpected shape/);
  });

  it('never puts the access token or customer data in errors or logs', async () => {
    const { logger, lines } = capturingLogger();
    answer(throttledBody({ requested: 10, available: 0, restoreRate: 100 }));
    nock(SHOP_ORIGIN).post(GRAPHQL_PATH).reply(401, { errors: 'Invalid API key or access token' });
    const error = await testClient({ logger })
      .getOrder('5551234')
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreAuthError);
    const surfaces = [error.message, String(error.cause), JSON.stringify(error), lines()];
    for (const text of surfaces) expect(text).not.toContain(ACCESS_TOKEN);

    // The fields at fault hold the customer's data themselves: a reason that quoted the
    // offending values (or the body) would leak them.
    const node = orderNode();
    answer({
      data: {
        order: {
          ...node,
          email: { value: 'mette@example.dk' },
          shippingAddress: { ...node.shippingAddress, address1: ['Nørrebrogade 12'] },
        },
      },
    });
    const shapeError = await testClient({ logger })
      .getOrder('5551234')
      .catch((e) => e);
    expect(shapeError).toBeInstanceOf(StoreRequestError);
    const shapeSurfaces = [
      shapeError.message,
      String(shapeError.cause),
      JSON.stringify(shapeError),
      lines(),
    ];
    for (const text of shapeSurfaces) {
      expect(text).not.toContain('mette@example.dk');
      expect(text).not.toContain('Nørrebrogade');
      expect(text).not.toContain('+4520123456');
    }
  });
});

describe('adminApiUrl override', () => {
  it('sends Admin API requests to the override origin instead of https://{shop}', async () => {
    const override = 'http://127.0.0.1:4020';
    const { scope, requests } = answer({ data: { order: orderNode() } }, 200, override);
    const order = await testClient({ adminApiUrl: override }).getOrder('5551234');
    expect(order?.id).toBe('5551234');
    expect(scope.isDone()).toBe(true);
    expect(requests).toHaveLength(1);
  });

  it('keeps a path prefix of the override', async () => {
    const scope = nock('http://127.0.0.1:4021')
      .post(`/shopify${GRAPHQL_PATH}`)
      .reply(200, { data: { order: null } });
    await testClient({ adminApiUrl: 'http://127.0.0.1:4021/shopify/' }).getOrder('1');
    expect(scope.isDone()).toBe(true);
  });

  it('does not leak the override into another client for the same shop', async () => {
    const overridden = testClient({ adminApiUrl: 'http://127.0.0.1:4022' });
    const direct = testClient();
    const local = answer({ data: { order: null } }, 200, 'http://127.0.0.1:4022');
    const real = answer({ data: { order: null } });
    await Promise.all([overridden.getOrder('1'), direct.getOrder('2')]);
    expect(local.requests[0]?.variables?.id).toBe('gid://shopify/Order/1');
    expect(real.requests[0]?.variables?.id).toBe('gid://shopify/Order/2');
  });
});
