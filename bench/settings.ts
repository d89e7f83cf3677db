/**
 * What the benchmarks' connectors run with, and the clients built from it. Loads nothing beyond
 * the connector's own clients: bench/sync-process.ts imports it and measures its own memory.
 */
import type { Redis } from 'ioredis';
import type { Config } from '../config/index.js';
import type { JobSettings } from '../jobs/context.js';
import { buildPartnerSide, type PartnerSide } from '../src/compose/clients.js';
import type { Logger } from '../src/log.js';
import type { PartnerRequestOutcome } from '../src/partner/client.js';
import { type AdminClientOptions, createStoreClient } from '../src/store/index.js';
import type { StoreClient } from '../src/store/types.js';

/** The warehouse and status sync settings the benchmarks run with. */
export const SHIPMENT_SETTINGS: Config['shipment'] = {
  sender: {
    name: 'Warehouse Desk',
    company: 'Bench Shop ApS',
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

export const SYNC_SETTINGS: Config['sync'] = {
  intervalMs: 300_000,
  lookbackDays: 60,
  reportProgress: true,
  statusMetafields: 'unshown',
  notifyCustomer: true,
  tracking: { companies: {}, urlTemplates: {} },
};

/** The settings the benchmarks' jobs read; a benchmark that needs others names them. */
export function benchJobSettings(overrides: Partial<JobSettings> = {}): JobSettings {
  return {
    shipment: SHIPMENT_SETTINGS,
    eligibility: {
      financialStatuses: ['paid'],
      skipTestOrders: true,
      includeTags: [],
      excludeTags: [],
    },
    createJob: { attempts: 3, backoff: { firstMs: 100, maxMs: 1_000 } },
    interruptedJobs: { firstRetryDelayMs: 600_000 },
    intake: { pollIntervalMs: 300_000, pollOverlapMs: 600_000, firstLookbackDays: 30 },
    records: { retentionDays: 90 },
    sync: SYNC_SETTINGS,
    ...overrides,
  };
}

/** The partner sandbox's built-in account (src/sandbox/partner/accounts.ts). */
export const SANDBOX_TOKEN = 'sbx_demo_token';

/**
 * The partner client and its budget (keys under the prefix) against a sandbox at `apiUrl`, with
 * a limit far above any benchmark's traffic: the budget is not what these measure.
 */
export function benchPartnerSide(
  apiUrl: string,
  redis: Redis,
  prefix: string,
  logger: Logger,
  overrides: Partial<Config['partner']> = {},
  /** Told how each request ended (as the service notes them on the order's timeline). */
  onRequest?: (outcome: PartnerRequestOutcome) => void,
): PartnerSide {
  const settings: Config['partner'] = {
    apiUrl,
    token: SANDBOX_TOKEN,
    rateLimit: 1_000_000,
    rateWindowMs: 60_000,
    syncReserve: 0.2,
    retryAfterDefaultMs: 1_000,
    retryAfterMaxMs: 900_000,
    timeoutMs: 10_000,
    ...overrides,
  };
  return buildPartnerSide(settings, redis, logger, `${prefix}:partner-budget`, onRequest);
}

/** The benchmarks' shop in the local fake store (nothing here is a real credential). */
export const BENCH_STORE = {
  shop: 'bench.myshopify.com',
  accessToken: 'shpat_bench',
  webhookSecret: 'bench',
} as const;

/** The connector's Shopify Admin client for BENCH_STORE, reaching a fake store at `adminApiUrl`. */
export function benchStoreClient(
  adminApiUrl: string,
  logger: Logger,
  options: Partial<AdminClientOptions> = {},
): StoreClient {
  return createStoreClient({
    shop: BENCH_STORE.shop,
    auth: { kind: 'accessToken', accessToken: BENCH_STORE.accessToken },
    apiVersion: '2026-10',
    adminApiUrl,
    webhookSecret: BENCH_STORE.webhookSecret,
    logger,
    ...options,
  });
}
