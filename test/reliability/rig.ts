import { type ChildProcess, fork } from 'node:child_process';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { loadConfig } from '../../config/index.js';
import { JOBS } from '../../jobs/catalog.js';
import { redriveOf, STALLED_TOO_OFTEN, WHEN_INTERRUPTED } from '../../jobs/redrive.js';
import { freePort } from '../../src/demo/free-port.js';
import { createLogger } from '../../src/log.js';
import {
  type PartnerSandbox,
  type PartnerSandboxOptions,
  startPartnerSandbox,
} from '../../src/sandbox/partner/index.js';
import {
  deliverWebhook,
  type FakeOrder,
  type FakeOrderInput,
  type FakeStore,
  orderWebhookPayload,
  startFakeStore,
} from '../../src/sandbox/store/index.js';
import { type RunningService, startService } from '../../src/service.js';
import { built } from '../helpers/built-connector.js';
import { dropKeys, uniquePrefix } from '../helpers/redis.js';
import { waitUntil } from '../helpers/shipment-stack.js';

/**
 * One reliability scenario's world: the partner sandbox and the fake store in this process, the
 * webhook intake (`startService` without workers) in this process, and the workers in child
 * processes (`service-process.ts`, i.e. `startService` as `connector start --no-http` runs it)
 * that the scenario may kill with SIGKILL and start again. Everything listens on loopback.
 */

export const SHOP = 'reliability.myshopify.com';
export const STORE_TOKEN = 'shpat_reliability_store_token_0001';
export const WEBHOOK_SECRET = 'whsec_reliability_webhook_secret_0001';
export const PARTNER_EMAIL = 'demo@sandbox.local';
export const PARTNER_TOKEN = 'sbx_demo_token';
export const ADMIN_PASSWORD = 'reliability-admin-password-0001';

/** A job cut off too often runs again after this (production: 10 minutes), as the job lock is short. */
const INTERRUPTED_RETRY_MS = 2_000;
const INTERRUPTED_MAX_RETRIES = WHEN_INTERRUPTED.maxRetries;

export interface RigOptions {
  redisUrl: string;
  sandbox?: PartnerSandboxOptions;
  /** Extra or overriding settings for every connector process. */
  env?: Record<string, string>;
  /** The intake's log level (default warn). */
  logLevel?: string;
}

export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly index: number;
  exited: Promise<void>;
}

export interface OrderCheck {
  orders: number;
  shipments: number;
  /** Orders with more than one shipment at the provider. */
  duplicates: string[];
  /** Eligible orders with no shipment. */
  missing: string[];
  /** Registered at the provider but no order number on the Shopify order. */
  notMarked: string[];
  /** Shipped at the provider, without exactly one fulfillment carrying its tracking number. */
  badFulfilments: string[];
  fulfilments: number;
}

export type Rig = Awaited<ReturnType<typeof startRig>>;

/** What every scenario reports of its orders: shipments made, orders duplicated, orders lost. */
export function orderFigures(done: OrderCheck) {
  return {
    shipments: done.shipments,
    duplicates: done.duplicates.length,
    lost: done.missing.length,
  };
}

export async function startRig(options: RigOptions) {
  const prefix = uniquePrefix('reliability');
  const output: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      output.push(String(chunk));
      done();
    },
  });
  const sandbox: PartnerSandbox = await startPartnerSandbox({
    rateLimit: 100_000,
    rateWindowMs: 60_000,
    ...options.sandbox,
  });
  const intakePort = await freePort('127.0.0.1');
  const intakeUrl = `http://127.0.0.1:${intakePort}/webhooks/shopify`;
  const store: FakeStore = await startFakeStore({
    shop: SHOP,
    accessToken: STORE_TOKEN,
    webhookSecret: WEBHOOK_SECRET,
    orders: [],
    webhookUrl: intakeUrl,
  });
  const baseEnv: Record<string, string> = {
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    HOST: '127.0.0.1',
    PORT: String(intakePort),
    REDIS_URL: options.redisUrl,
    QUEUE_PREFIX: prefix,
    PARTNER_API_URL: sandbox.url,
    PARTNER_API_TOKEN: PARTNER_TOKEN,
    PARTNER_RATE_LIMIT: '100000',
    PARTNER_RATE_WINDOW_MS: '60000',
    SHOPIFY_SHOP: SHOP,
    SHOPIFY_ACCESS_TOKEN: STORE_TOKEN,
    SHOPIFY_WEBHOOK_SECRET: WEBHOOK_SECRET,
    SHOPIFY_ADMIN_API_URL: store.url,
    ADMIN_USER: 'ops',
    ADMIN_PASSWORD,
    ORDER_POLL_INTERVAL_MS: '600000',
    SYNC_INTERVAL_MS: '1000',
    CREATE_BACKOFF_MS: '200',
    CREATE_BACKOFF_MAX_MS: '1000',
    CREATE_ATTEMPTS: '8',
    INTERRUPTED_JOB_RETRY_MS: String(INTERRUPTED_RETRY_MS),
    SENDER_NAME: 'Lagerekspedition',
    SENDER_COMPANY: 'Reliability ApS',
    SENDER_PHONE: '+4570203040',
    SENDER_EMAIL: 'lager@reliability.example',
    SENDER_STREET: 'Lagervej 2',
    SENDER_CITY: 'Odense',
    SENDER_POSTAL_CODE: '5220',
    SENDER_COUNTRY_CODE: 'DK',
  };
  let env = { ...baseEnv, ...options.env };

  let intake: RunningService | undefined;
  const startIntake = async () => {
    const logger = createLogger({ level: (options.logLevel ?? env.LOG_LEVEL) as 'warn' }, sink);
    intake = await startService(loadConfig(env), { logger, workers: false });
  };
  await startIntake();

  const workers: (WorkerProcess | undefined)[] = [];
  const counts = { spawned: 0, killed: 0 };

  const spawnWorker = async (index: number): Promise<WorkerProcess> => {
    const child = fork(built('test/reliability/service-process.js'), {
      execArgv: [],
      env: { ...process.env, ...env, RELIABILITY_HTTP: 'false' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    child.stdout?.on('data', (chunk) => output.push(String(chunk)));
    child.stderr?.on('data', (chunk) => output.push(String(chunk)));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const worker: WorkerProcess = { child, index, exited };
    workers[index] = worker;
    counts.spawned += 1;
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`worker ${index} exited (${code}) at start`)));
    });
    return worker;
  };

  const kill = async (index: number): Promise<void> => {
    const worker = workers[index];
    if (!worker) return;
    workers[index] = undefined;
    worker.child.kill('SIGKILL');
    counts.killed += 1;
    await worker.exited;
  };

  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
  redis.on('error', () => {});

  /** Delivers the order's webhook once, signed as Shopify signs it, whatever the answer. */
  const deliverOnce = (order: FakeOrder, topic = 'orders/create') =>
    deliverWebhook({
      url: intakeUrl,
      topic,
      shop: SHOP,
      secret: WEBHOOK_SECRET,
      apiVersion: '2026-10',
      payload: orderWebhookPayload(order),
    });

  /** Delivers the order's webhook as Shopify does: again and again until the answer is 2xx. */
  const sendWebhook = async (order: FakeOrder, topic = 'orders/create', timeoutMs = 120_000) => {
    const deadline = Date.now() + timeoutMs;
    let attempts = 0;
    for (;;) {
      attempts += 1;
      const delivery = await deliverOnce(order, topic);
      if (delivery.status !== null && delivery.status < 300) return { attempts, delivery };
      if (Date.now() > deadline) throw new Error(`webhook for ${order.id} never accepted`);
      await sleep(200);
    }
  };

  const rig = {
    prefix,
    sandbox,
    store,
    redis,
    intakeUrl,
    counts,
    get intake() {
      return intake;
    },
    get env() {
      return env;
    },
    setEnv(extra: Record<string, string>) {
      env = { ...env, ...extra };
    },
    /** All that every connector process (and the intake) logged so far. */
    logs: () => output.join(''),
    workers,
    spawnWorker,
    kill,
    async restartIntake() {
      await intake?.close();
      await startIntake();
    },
    deliverOnce,
    sendWebhook,
    /** Adds the orders to the store and delivers their orders/create webhooks. */
    async placeOrders(inputs: FakeOrderInput[], concurrency = 8): Promise<number> {
      let deliveries = 0;
      const queue = [...inputs];
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          for (let next = queue.shift(); next; next = queue.shift()) {
            const { order } = await store.createOrder(next, { sendWebhook: false });
            const { attempts } = await sendWebhook(order);
            deliveries += attempts;
          }
        }),
      );
      return deliveries;
    },
    /** Hands every shipment not yet shipped to the carrier, with a tracking number of its own. */
    shipAll(): number {
      let shipped = 0;
      for (const s of sandbox.shipments(PARTNER_EMAIL)) {
        if (s.status === 'pending' || s.status === 'processing') {
          sandbox.advance(s.reference, 'shipped', {
            carrier: 'GLS',
            trackingNumber: trackingNumberOf(s.reference),
          });
          shipped += 1;
        }
      }
      return shipped;
    },
    check(ids: readonly string[]): OrderCheck {
      const byRef = new Map<string, number>();
      const all = sandbox.shipments(PARTNER_EMAIL);
      for (const s of all) byRef.set(s.reference, (byRef.get(s.reference) ?? 0) + 1);
      const result: OrderCheck = {
        orders: ids.length,
        shipments: all.length,
        duplicates: [],
        missing: [],
        notMarked: [],
        badFulfilments: [],
        fulfilments: 0,
      };
      for (const id of ids) {
        const n = byRef.get(id) ?? 0;
        if (n === 0) result.missing.push(id);
        if (n > 1) result.duplicates.push(id);
        const shipment = all.find((s) => s.reference === id);
        const order = store.order(id);
        const marked = order?.metafields.find(
          (m) => m.namespace === 'partner_shipment' && m.key === 'order_number',
        )?.value;
        if (shipment && marked !== shipment.orderNumber) result.notMarked.push(id);
        const live = order?.fulfillments.filter((f) => f.status === 'SUCCESS') ?? [];
        result.fulfilments += live.length;
        if (shipment && (shipment.status === 'shipped' || shipment.status === 'delivered')) {
          const ok =
            live.length === 1 &&
            live[0]!.trackingInfo.length === 1 &&
            live[0]!.trackingInfo[0]!.number === shipment.trackingNumber;
          if (!ok) result.badFulfilments.push(id);
        } else if (live.length > 0) result.badFulfilments.push(id);
      }
      return result;
    },
    /** Waits until every order is registered, marked and (once shipped) fulfilled once. */
    async waitForAll(ids: readonly string[], timeoutMs: number, what = 'every order to complete') {
      return waitUntil<OrderCheck | undefined>(
        () => {
          const c = rig.check(ids);
          const complete = c.missing.length + c.notMarked.length + c.badFulfilments.length === 0;
          return complete ? c : undefined;
        },
        { timeoutMs, intervalMs: 250, what },
      ).catch((error: Error) => {
        const c = rig.check(ids);
        throw new Error(
          `${error.message}; missing ${c.missing.length} ${c.missing.slice(0, 5)}, not marked ${c.notMarked.length} ${c.notMarked.slice(0, 5)}, bad fulfilments ${c.badFulfilments.length} ${c.badFulfilments.slice(0, 5)}`,
        );
      });
    },
    /**
     * Failed jobs of every queue, by queue: nothing may fail for good. A job BullMQ failed for
     * being cut off too often is not failed for good while the retry-failed-jobs schedule
     * will still run it again: this waits (up to `timeoutMs`) until no such job is left waiting
     * for its retry, and lists what is failed then.
     */
    async failedJobs(timeoutMs = 60_000): Promise<Record<string, string[]>> {
      if (redis.status === 'wait') await redis.connect();
      const read = async () => {
        const failed: Record<string, string[]> = {};
        let awaitingRetry = 0;
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(
            cursor,
            'MATCH',
            `${prefix}:*:failed`,
            'COUNT',
            500,
          );
          cursor = next;
          for (const key of keys) {
            // Only a queue's failed set: another key may end in :failed too.
            if ((await redis.type(key)) !== 'zset') continue;
            const ids = await redis.zrange(key, 0, -1);
            if (ids.length === 0) continue;
            const queue = key.slice(prefix.length + 1, -':failed'.length);
            failed[queue] = [];
            for (const id of ids) {
              const [reason, data] = await redis.hmget(
                `${prefix}:${queue}:${id}`,
                'failedReason',
                'data',
              );
              failed[queue]!.push(`${id}: ${reason}`);
              const retried = Number(JSON.parse(data ?? '{}').interruptedRetries ?? 0);
              const retriedQueue = JOBS.some(
                (job) => job.queue === queue && redriveOf(job) === WHEN_INTERRUPTED,
              );
              if (
                reason === STALLED_TOO_OFTEN &&
                retriedQueue &&
                retried < INTERRUPTED_MAX_RETRIES
              ) {
                awaitingRetry++;
              }
            }
          }
        } while (cursor !== '0');
        return { failed, awaitingRetry };
      };
      const settled = await waitUntil(
        async () => {
          const now = await read();
          return now.awaitingRetry === 0 ? now : undefined;
        },
        { timeoutMs, intervalMs: 250, what: 'interrupted jobs to be run again' },
      ).catch(() => read());
      return settled.failed;
    },
    /**
     * Which secrets or personal data reached the logs, job data, job logs or failure reasons:
     * each as `<what> in <where>`. `extra` adds secrets of the scenario (a second token, say).
     */
    async leaks(extra: Record<string, string> = {}): Promise<string[]> {
      if (redis.status === 'wait') await redis.connect();
      const secrets: Record<string, string> = {
        'partner token': env.PARTNER_API_TOKEN!,
        'Shopify token': STORE_TOKEN,
        'webhook secret': WEBHOOK_SECRET,
        'admin password': ADMIN_PASSWORD,
        'receiver phone': RECEIVER.phone,
        'receiver email': RECEIVER.email,
        'receiver street': RECEIVER.street,
        ...extra,
      };
      const places: [string, string][] = [['logs', rig.logs()]];
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        cursor = next;
        for (const key of keys) {
          const type = await redis.type(key);
          if (type === 'hash') {
            const [data, reason, trace] = await redis.hmget(
              key,
              'data',
              'failedReason',
              'stacktrace',
            );
            places.push([key, `${data ?? ''}\n${reason ?? ''}\n${trace ?? ''}`]);
          } else if (type === 'list' && key.endsWith(':logs')) {
            places.push([key, (await redis.lrange(key, 0, -1)).join('\n')]);
          }
        }
      } while (cursor !== '0');
      const found: string[] = [];
      for (const [what, secret] of Object.entries(secrets)) {
        for (const [where, text] of places) {
          if (text.includes(secret)) {
            found.push(`${what} in ${where}`);
            break;
          }
        }
      }
      return found;
    },
    async close() {
      await Promise.all(workers.map((w, i) => (w ? kill(i) : undefined)));
      await intake?.close().catch(() => {});
      if (redis.status === 'wait') await redis.connect().catch(() => {});
      await dropKeys(redis, prefix).catch(() => {});
      redis.disconnect();
      await Promise.all([sandbox.close(), store.close()]);
    },
  };
  return rig;
}

/** The fake store's default receiver: none of it may reach logs, job data or failure reasons. */
export const RECEIVER = {
  phone: '+4520123456',
  email: 'mette.hansen@example.dk',
  street: 'Nørrebrogade 12',
};

/** The tracking number the scenario gives an order's parcel. */
export function trackingNumberOf(reference: string): string {
  return `TT${reference}`;
}

/** Order inputs for the store: paid, with an address, ids counting from `first`. */
export function orderInputs(first: number, count: number): FakeOrderInput[] {
  return Array.from({ length: count }, (_, i) => ({ id: String(first + i) }));
}

/** Seeded pseudo-random numbers, so a scenario's kill schedule can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}
