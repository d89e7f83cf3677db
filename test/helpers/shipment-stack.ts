import { setTimeout as sleep } from 'node:timers/promises';
import type { Job, JobState, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach } from 'vitest';
import type { Config } from '../../config/index.js';
import type { JobContext, JobSettings } from '../../jobs/context.js';
import {
  buildPartnerSide,
  noteRequestsOnTimeline,
  type PartnerSide,
} from '../../src/compose/clients.js';
import { buildSharedParts, type SharedParts } from '../../src/compose/parts.js';
import { startWorkers, type WorkerOptions } from '../../src/compose/workers.js';
import { createLogger, type Logger } from '../../src/log.js';
import type { Counters } from '../../src/metrics/counters.js';
import type { PartnerAuthGuard } from '../../src/partner/auth-guard.js';
import type { PartnerBudget } from '../../src/partner/budget.js';
import type { PartnerClient } from '../../src/partner/client.js';
import { createRedis } from '../../src/queue/redis.js';
import type { OrderRecords } from '../../src/records/order-records.js';
import {
  type PartnerSandbox,
  type PartnerSandboxOptions,
  startPartnerSandbox,
} from '../../src/sandbox/partner/index.js';
import {
  type FakeOrderInput,
  type FakeStore,
  startFakeStore,
} from '../../src/sandbox/store/index.js';
import { type AdminClientOptions, createStoreClient } from '../../src/store/client.js';
import type { StoreClient } from '../../src/store/types.js';
import { dropKeys, REDIS_URL, uniquePrefix } from './redis.js';

/**
 * The order-to-shipment path built by `src/compose/` as `src/service.ts` builds it, against real things only: Redis,
 * the partner sandbox over HTTP and the fake Shopify store over HTTP (the real Admin client
 * reaching it through `adminApiUrl`). Every stack has its own BullMQ prefix, budget keys,
 * sandbox and store, so tests never see each other's state.
 */

export const SHOP = 'flow-test.myshopify.com';
export const STORE_TOKEN = 'shpat_flow_test';
export const WEBHOOK_SECRET = 'whsec_flow_test';
export const DEMO_TOKEN = 'sbx_demo_token';
export const DEMO_EMAIL = 'demo@sandbox.local';

/** Fixture order ids of the fake store (src/sandbox/store/fixtures). */
export const FIXTURE = {
  paidCopenhagen: '5550001',
  documentAarhus: '5550002',
  missingPostalCodeOdense: '5550003',
  heavyAalborg: '5550004',
  unpaidRoskilde: '5550005',
  testOrderEsbjerg: '5550006',
  cancelledVejle: '5550007',
} as const;

export const SYNC_SETTINGS: Config['sync'] = {
  intervalMs: 300_000,
  lookbackDays: 60,
  reportProgress: true,
  statusMetafields: 'unshown',
  notifyCustomer: true,
  tracking: { companies: {}, urlTemplates: {} },
};

export type StackConfig = JobSettings;

export const SHIPMENT_SETTINGS: Config['shipment'] = {
  sender: {
    name: 'Warehouse Desk',
    company: 'Demo Shop ApS',
    phone: '+4570000000',
    email: 'warehouse@example.com',
    street: 'Lagervej 2',
    city: 'Odense',
    postalCode: '5000',
    countryCode: 'DK',
  },
  sendReceiverEmail: false,
  documentTag: 'document',
  contentDescription: undefined,
  defaultWeightKg: 0.5,
  defaultBox: { lengthCm: 30, widthCm: 20, heightCm: 10 },
  collectFromLocations: [],
  shipPickupPoints: false,
};

export const ELIGIBILITY: Config['eligibility'] = {
  financialStatuses: ['paid'],
  skipTestOrders: true,
  includeTags: [],
  excludeTags: [],
};

/** Three attempts with retries 50 ms and 100 ms apart (less jitter): a test sees them all. */
export const FAST_CREATE_JOB: Config['createJob'] = {
  attempts: 3,
  backoff: { firstMs: 50, maxMs: 200 },
};

export interface ShipmentStackOptions {
  /** Seed orders of the fake store; the bundled fixtures (5550001…5550007) by default. */
  orders?: FakeOrderInput[];
  sandbox?: PartnerSandboxOptions;
  /** The shared partner budget as the connector believes it (default 60 per 60 s). */
  budget?: { limit?: number; windowMs?: number };
  createJob?: Config['createJob'];
  /** Status sync settings over the tests' defaults. */
  sync?: Partial<Config['sync']>;
  /** Shipment settings over the tests' defaults (e.g. the locations the provider collects from). */
  shipment?: Partial<Config['shipment']>;
  /** Start the workers at once (default true); false to start them later with `startWorkers`. */
  workers?: boolean;
  concurrency?: WorkerOptions['concurrency'];
  /** Overrides for the Shopify Admin client (e.g. `maxThrottleWaits`, `sleep`). */
  storeClient?: Partial<AdminClientOptions>;
}

export interface ShipmentStack {
  readonly prefix: string;
  /** The connection queues, workers, records, counters and the budget share (as in the service). */
  readonly redis: Redis;
  readonly sandbox: PartnerSandbox;
  readonly store: FakeStore;
  readonly storeClient: StoreClient;
  readonly config: StackConfig;
  /** The shared parts, built by the one builder the service uses. */
  readonly parts: SharedParts;
  readonly queues: SharedParts['queues'];
  readonly records: OrderRecords;
  readonly counters: Counters;
  readonly authGuard: PartnerAuthGuard;
  /** What the running (or last started) workers' processors get. */
  readonly context: JobContext;
  readonly logger: Logger;
  /** The partner client of the running (or last started) workers, and its budget. */
  readonly partner: PartnerClient;
  readonly budget: PartnerBudget;
  readonly workers: readonly Worker[];
  /** A partner client and budget for another token, built as the service builds them. */
  partnerFor(token: string): PartnerSide;
  /**
   * Starts the catalog's workers, as a restart of the service would; `ports` replaces the
   * partner or store client (or the shipment records) their processors get (to hold a call
   * mid-job, say), or drives their clock; `jobLock` shortens BullMQ's job lock, so that a job cut off runs again soon.
   */
  startWorkers(options?: {
    token?: string;
    ports?: Partial<Pick<JobContext, 'partner' | 'store' | 'tracking' | 'clock'>>;
    jobLock?: WorkerOptions['jobLock'];
  }): Worker[];
  /**
   * Stops the workers, letting running jobs finish; with `abandon`, at once, as a crash would:
   * their jobs stay active, and their locks are no longer renewed.
   */
  stopWorkers(options?: { abandon?: boolean }): Promise<void>;
  close(): Promise<void>;
}

const CLOSE_GRACE_MS = 5_000;

export async function startShipmentStack(
  options: ShipmentStackOptions = {},
): Promise<ShipmentStack> {
  const prefix = uniquePrefix('flow');
  const logger = createLogger({ level: 'silent' });
  const redis = createRedis(REDIS_URL, 'worker');
  const sandbox = await startPartnerSandbox(options.sandbox);
  const store = await startFakeStore({
    shop: SHOP,
    accessToken: STORE_TOKEN,
    webhookSecret: WEBHOOK_SECRET,
    ...(options.orders ? { orders: options.orders } : {}),
  });
  const storeClient = createStoreClient({
    shop: SHOP,
    auth: { kind: 'accessToken', accessToken: STORE_TOKEN },
    apiVersion: '2026-10',
    adminApiUrl: store.url,
    webhookSecret: WEBHOOK_SECRET,
    logger,
    ...options.storeClient,
  });

  const config: StackConfig = {
    shipment: { ...SHIPMENT_SETTINGS, ...options.shipment },
    eligibility: ELIGIBILITY,
    createJob: options.createJob ?? FAST_CREATE_JOB,
    interruptedJobs: { firstRetryDelayMs: 600_000 },
    intake: { pollIntervalMs: 300_000, pollOverlapMs: 120_000, firstLookbackDays: 30 },
    records: { retentionDays: 90 },
    sync: { ...SYNC_SETTINGS, ...options.sync },
  };
  const parts = buildSharedParts({ redis, prefix, settings: config, logger });

  // Under the stack's prefix, so the budget is unique to this test and dropped with it.
  const partnerFor = (token: string): PartnerSide =>
    buildPartnerSide(
      {
        apiUrl: sandbox.url,
        token,
        rateLimit: options.budget?.limit ?? 60,
        rateWindowMs: options.budget?.windowMs ?? 60_000,
        syncReserve: 0.2,
        retryAfterDefaultMs: 1_000,
        retryAfterMaxMs: 900_000,
        timeoutMs: 5_000,
      },
      redis,
      logger,
      `${prefix}:partner-budget`,
      noteRequestsOnTimeline(parts.timeline, logger),
    );

  let side = partnerFor(DEMO_TOKEN);
  let workers: Worker[] = [];

  const stack: ShipmentStack = {
    prefix,
    redis,
    sandbox,
    store,
    storeClient,
    config,
    parts,
    queues: parts.queues,
    records: parts.records,
    counters: parts.counters,
    authGuard: parts.authGuard,
    logger,
    get context() {
      return { ...parts, store: storeClient, partner: side.partner };
    },
    get partner() {
      return side.partner;
    },
    get budget() {
      return side.budget;
    },
    get workers() {
      return workers;
    },
    partnerFor,
    startWorkers(start = {}) {
      if (workers.length > 0) throw new Error('workers are running; stop them first');
      if (start.token) side = partnerFor(start.token);
      workers = startWorkers(
        { ...stack.context, ...start.ports },
        {
          connection: redis,
          ...(options.concurrency ? { concurrency: options.concurrency } : {}),
          ...(start.jobLock ? { jobLock: start.jobLock } : {}),
        },
      );
      return workers;
    },
    async stopWorkers(stop = {}) {
      const running = workers;
      workers = [];
      await Promise.all(
        running.map((worker) => (stop.abandon ? worker.close(true) : closeWorker(worker))),
      );
    },
    async close() {
      await stack.stopWorkers();
      await parts.close();
      await dropKeys(redis, prefix);
      await redis.quit();
      await Promise.all([sandbox.close(), store.close()]);
    },
  };

  if (options.workers !== false) stack.startWorkers();
  return stack;
}

/**
 * One stack per test: returns a starter, and closes whatever it started after each test.
 * Call it at the top of a test file.
 */
export function shipmentStacks(): (options?: ShipmentStackOptions) => Promise<ShipmentStack> {
  let current: ShipmentStack | undefined;
  afterEach(async () => {
    const stack = current;
    current = undefined;
    await stack?.close();
  });
  return async (options) => {
    if (current) throw new Error('one stack per test');
    current = await startShipmentStack(options);
    return current;
  };
}

/** What the create job and the edit check work with, as the workers give it to them. */
export function registerDepsOf(s: ShipmentStack) {
  return {
    store: s.storeClient,
    partner: s.partner,
    records: s.records,
    tracking: s.parts.tracking,
    counters: s.counters,
    settings: { shipment: s.config.shipment, eligibility: s.config.eligibility },
    markOrder: s.parts.markOrder,
    logger: s.logger,
  };
}

/** Lets active jobs finish; a job that hangs past the grace period is abandoned (force). */
async function closeWorker(worker: Worker): Promise<void> {
  const graceful = worker.close();
  const outcome = await Promise.race([
    graceful.then(() => 'closed' as const),
    sleep(CLOSE_GRACE_MS).then(() => 'timeout' as const),
  ]);
  if (outcome === 'timeout') {
    await worker.close(true);
  }
}

/**
 * A point where a port call stops until the test lets it go, to make something happen while a
 * job is in the middle of its work: `reached` resolves once a call got there.
 */
export function holdPoint() {
  let arrive!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    reached,
    release,
    /** Called by the held port: waits there until released. */
    async stop(): Promise<void> {
      arrive();
      await released;
    },
  };
}

export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Named in the timeout message. */
  what?: string;
}

/** Polls `check` until it returns something truthy, and returns it; throws after the timeout. */
export async function waitUntil<T>(
  check: () => T | Promise<T>,
  options: WaitOptions = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const detail = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`Timed out waiting for ${options.what ?? 'a condition'} (last: ${detail})`);
    }
    await sleep(options.intervalMs ?? 20);
  }
}

/** Polls `assertion` until it stops throwing (an `expect` block, say); rethrows after the timeout. */
export async function eventually(
  assertion: () => void | Promise<void>,
  options: WaitOptions = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    try {
      await assertion();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await sleep(options.intervalMs ?? 20);
  }
}

type WaitableState = JobState | 'unknown';
const FINISHED: WaitableState[] = ['completed', 'failed'];

/**
 * Waits until the job is in one of `states` and returns it, freshly loaded. A job that finished
 * in another state fails at once, with its failure reason, rather than waiting for the timeout.
 */
export async function waitForJob(
  queue: Queue,
  jobId: string,
  states: WaitableState | WaitableState[],
  options: WaitOptions = {},
): Promise<Job> {
  const wanted = Array.isArray(states) ? states : [states];
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let state: WaitableState = 'unknown';
  for (;;) {
    state = await queue.getJobState(jobId);
    if (wanted.includes(state)) {
      const job = await queue.getJob(jobId);
      if (job) return job;
    } else if (FINISHED.includes(state)) {
      const job = await queue.getJob(jobId);
      throw new Error(
        `Job ${queue.name}/${jobId} is ${state}, not ${wanted.join('/')}` +
          (job?.failedReason ? `: ${job.failedReason}` : ''),
      );
    }
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out waiting for job ${queue.name}/${jobId} to be ${wanted.join('/')} (it is ${state})`,
      );
    }
    await sleep(options.intervalMs ?? 20);
  }
}

/** The sandbox's create requests (POST /shipments) presented with `token`. */
export function createRequests(sandbox: PartnerSandbox, token = DEMO_TOKEN) {
  return sandbox.requests.filter(
    (r) => r.method === 'POST' && r.path.endsWith('/shipments') && r.token === token,
  );
}

/** Shipments the sandbox holds for the demo account under `reference`. */
export function shipmentsWithReference(sandbox: PartnerSandbox, reference: string) {
  return sandbox.shipments(DEMO_EMAIL).filter((s) => s.reference === reference);
}

/** A metafield of the fake store's order in the connector's namespace. */
export function metafield(store: FakeStore, orderId: string, key: string): string | undefined {
  return store
    .order(orderId)
    ?.metafields.find((m) => m.namespace === 'partner_shipment' && m.key === key)?.value;
}

/** The partner client with a count of the places it takes in the budget for creates. */
export function countingReservations(partner: PartnerClient) {
  const counted = { reserved: 0 };
  const client = new Proxy(partner, {
    get(target, key) {
      if (key === 'reserveCreate') {
        return async () => {
          counted.reserved += 1;
          return target.reserveCreate();
        };
      }
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { client, counted };
}
