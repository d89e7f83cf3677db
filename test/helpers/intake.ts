import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../../config/index.js';
import type { JobSettings } from '../../jobs/context.js';
import { buildOrderLookup } from '../../src/compose/order-lookup.js';
import { buildSharedParts, type SharedParts } from '../../src/compose/parts.js';
import { createLogger, type Logger } from '../../src/log.js';
import { PartnerBudget } from '../../src/partner/budget.js';
import { createRedis } from '../../src/queue/redis.js';
import { StoreHealth } from '../../src/records/store-health.js';
import { type FakeStore, startFakeStore } from '../../src/sandbox/store/index.js';
import type { FakeOrderInput } from '../../src/sandbox/store/model.js';
import { webhookHeaders } from '../../src/sandbox/store/webhooks.js';
import { buildServer, type HttpTimeouts } from '../../src/server/app.js';
import type { AdminLogin } from '../../src/server/board.js';
import type { LoginThrottle } from '../../src/server/board-login.js';
import { type AdminClientOptions, createStoreClient } from '../../src/store/client.js';
import type { StoreClient } from '../../src/store/types.js';
import { createWebhookVerifier } from '../../src/store/webhooks.js';
import { dropKeys, REDIS_URL, testRedis, uniquePrefix } from './redis.js';
import { SHIPMENT_SETTINGS, SYNC_SETTINGS } from './shipment-stack.js';

export const SHOP = 'intake-demo.myshopify.com';
export const WEBHOOK_SECRET = 'whsec_intake_secret';
export const ACCESS_TOKEN = 'shpat_intake_token';
export const API_VERSION = '2026-10';

export const silentLogger = createLogger({ level: 'silent' });

/** Attempts and backoff of the create-shipment queue in tests (the delays are never waited). */
export const CREATE_JOB: Config['createJob'] = {
  attempts: 3,
  backoff: { firstMs: 60_000, maxMs: 60_000 },
};

/** The defaults of the configuration, plus one excluded tag. */
export const ELIGIBILITY: Config['eligibility'] = {
  financialStatuses: ['paid'],
  skipTestOrders: true,
  includeTags: [],
  excludeTags: ['no-ship'],
};

/** Real HMAC checks by @shopify/shopify-api, for the one shop the intake serves. */
export const verify = createWebhookVerifier({
  webhookSecret: WEBHOOK_SECRET,
  shop: SHOP,
});

/** Resolves once `check` holds; polls instead of sleeping a fixed time. */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 5_000, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function untilReady(redis: Redis): Promise<void> {
  if (redis.status !== 'ready') await once(redis, 'ready');
}

export const SETTINGS: JobSettings = {
  shipment: SHIPMENT_SETTINGS,
  eligibility: ELIGIBILITY,
  createJob: CREATE_JOB,
  interruptedJobs: { firstRetryDelayMs: 600_000 },
  intake: { pollIntervalMs: 300_000, pollOverlapMs: 120_000, firstLookbackDays: 30 },
  records: { retentionDays: 90 },
  sync: SYNC_SETTINGS,
};

/** The intake's parts on one connection, built as src/service.ts builds them. */
export type IntakeParts = SharedParts;

export function intakeParts(redis: Redis, prefix: string): IntakeParts {
  const parts = buildSharedParts({ redis, prefix, settings: SETTINGS, logger: silentLogger });
  // A queue on a dead connection reports errors; the tests look at HTTP answers instead.
  for (const queue of Object.values(parts.queues)) queue.on('error', () => {});
  return parts;
}

export interface RunningIntake extends IntakeParts {
  app: FastifyInstance;
  /** The partner budget /status reads. */
  budget: PartnerBudget;
  /** e.g. http://127.0.0.1:43121 */
  url: string;
  close(): Promise<void>;
}

/**
 * The HTTP intake as src/service.ts builds it: a fail-fast ('client') Redis connection for the
 * delivery marks and health, the shared parts on a connection that waits for Redis, the real
 * webhook verifier, listening on a free port. Its keys live under a prefix of their own.
 */
export async function startIntake(
  options: {
    name?: string;
    redisUrl?: string;
    waitForRedis?: boolean;
    /** How long a delivery may wait for Redis (the route's own default otherwise). */
    answerWithinMs?: number;
    /** Mounts Bull Board with this login (not mounted without). */
    adminLogin?: AdminLogin;
    /** How the order search finds an order by name (by default: there is no store to ask). */
    findOrderByName?: StoreClient['findOrderByName'];
    /** The board's count of wrong logins (one with its own clock, say). */
    loginThrottle?: LoginThrottle;
    /** The server's logger (silent otherwise). */
    logger?: Logger;
    /** The server's limits on slow clients (its defaults otherwise). */
    timeouts?: HttpTimeouts;
  } = {},
): Promise<RunningIntake> {
  const prefix = uniquePrefix(options.name ?? 'intake');
  const redis = createRedis(options.redisUrl ?? REDIS_URL, 'client');
  const partsRedis = createRedis(options.redisUrl ?? REDIS_URL, 'worker');
  for (const connection of [redis, partsRedis]) connection.on('error', () => {});
  // Both, or a close right after the start would drop the queues' first commands mid-connect.
  if (options.waitForRedis !== false)
    await Promise.all([untilReady(redis), untilReady(partsRedis)]);
  const parts = intakeParts(partsRedis, prefix);
  const budget = new PartnerBudget(redis, {
    token: 'intake-test-token',
    limit: 60,
    windowMs: 60_000,
    keyPrefix: `${prefix}:partner-budget`,
  });
  const app = await buildServer({
    verify,
    redis,
    prefix,
    counters: parts.counters,
    acceptWebhook: (event, delivery) => parts.acceptWebhook(event, delivery, redis),
    budget,
    storeHealth: new StoreHealth(redis, prefix),
    logger: options.logger ?? silentLogger,
    board: options.adminLogin
      ? {
          queues: Object.values(parts.queues),
          login: options.adminLogin,
          shop: SHOP,
          lookup: buildOrderLookup({
            redis,
            prefix,
            queues: Object.values(parts.queues),
            findOrderByName:
              options.findOrderByName ??
              (async () => {
                throw new Error('no Shopify store in this test');
              }),
          }),
          ...(options.loginThrottle ? { throttle: options.loginThrottle } : {}),
        }
      : { queues: Object.values(parts.queues), login: undefined },
    ...(options.answerWithinMs ? { answerWithinMs: options.answerWithinMs } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    ...parts,
    app,
    budget,
    url: address,
    async close() {
      await app.close();
      if (redis.status === 'ready') await dropKeys(redis, prefix);
      // A connection that never came up must be dropped first, or closing its queues waits for it.
      for (const connection of [redis, partsRedis]) {
        if (connection.status !== 'ready') connection.disconnect();
      }
      await parts.close();
      for (const connection of [redis, partsRedis]) {
        if (connection.status === 'ready') await connection.quit();
      }
    },
  };
}

/** A plain test connection with its own prefix and the intake parts on it. */
export async function intakeOnTestRedis(name: string) {
  const redis = testRedis();
  const parts = intakeParts(redis, uniquePrefix(name));
  return {
    ...parts,
    async close() {
      await parts.close();
      await dropKeys(redis, parts.prefix);
      await redis.quit();
    },
  };
}

export function storeClient(adminApiUrl: string, overrides: Partial<AdminClientOptions> = {}) {
  return createStoreClient({
    shop: SHOP,
    auth: { kind: 'accessToken', accessToken: ACCESS_TOKEN },
    apiVersion: API_VERSION,
    adminApiUrl,
    webhookSecret: WEBHOOK_SECRET,
    logger: silentLogger,
    sleep: async () => {},
    ...overrides,
  });
}

/** The fake store over HTTP, for the shop and secret the intake serves. */
export function startStore(options: { orders?: FakeOrderInput[]; webhookUrl?: string } = {}) {
  return startFakeStore({
    shop: SHOP,
    accessToken: ACCESS_TOKEN,
    webhookSecret: WEBHOOK_SECRET,
    apiVersion: API_VERSION,
    ...options,
  });
}

/** The Admin GraphQL requests that listed orders: what each reconciliation pass asked for. */
export function orderListings(store: FakeStore) {
  return store.requests
    .filter((r) => r.operationName === 'ListOrdersUpdatedSince')
    .map((r) => r.variables as { first: number; after: string | null; query: string });
}

export interface WebhookDelivery {
  topic: string;
  body: string;
  webhookId?: string;
  eventId?: string;
  secret?: string;
  shop?: string;
  /** Replace or (with undefined) drop headers after signing. */
  headers?: Record<string, string | undefined>;
}

/** POSTs a webhook over real HTTP, signed like Shopify signs it (unless told otherwise). */
export async function postWebhook(url: string, delivery: WebhookDelivery) {
  const signed: Record<string, string | undefined> = {
    ...webhookHeaders({
      topic: delivery.topic,
      shop: delivery.shop ?? SHOP,
      secret: delivery.secret ?? WEBHOOK_SECRET,
      apiVersion: API_VERSION,
      body: delivery.body,
      ...(delivery.webhookId ? { webhookId: delivery.webhookId } : {}),
      ...(delivery.eventId ? { eventId: delivery.eventId } : {}),
    }),
    ...delivery.headers,
  };
  const headers = Object.fromEntries(
    Object.entries(signed).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const response = await fetch(`${url}/webhooks/shopify`, {
    method: 'POST',
    headers,
    body: delivery.body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

/** Every job in a queue, whatever its state. */
export async function allJobs(queue: Queue) {
  return queue.getJobs(
    ['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'],
    0,
    -1,
  );
}

/** A port on loopback where nothing listens. */
export async function deadPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * A TCP hop in front of the test Redis that can be cut and restored, so a connected intake
 * sees Redis go away and come back on the same address.
 */
export class RedisOutage {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async open(): Promise<void> {
    const target = new URL(REDIS_URL);
    const server = createServer((client) => {
      const redis = connect(Number(target.port), target.hostname);
      for (const socket of [client, redis]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
      }
      redis.on('error', () => client.destroy());
      client.on('error', () => redis.destroy());
      client.pipe(redis).pipe(client);
    });
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Refuses new connections and drops the open ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = once(server, 'close');
    server.close();
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}
