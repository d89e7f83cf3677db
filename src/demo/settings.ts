import { randomBytes } from 'node:crypto';

/**
 * The demo's built-in defaults. Everything the connector needs comes from here except Redis, so a
 * newcomer runs it with no `.env`. Nothing here is a real credential: the shop, token and secret
 * only exist inside the local fake store and partner sandbox this process starts.
 */
export const DEMO_SHOP = 'demo-shop.myshopify.com';
/** The same as `connector fake-store`'s defaults and the Docker sandbox profile's (README). */
export const DEMO_STORE_TOKEN = 'shpat_sandbox_local_only';
export const DEMO_WEBHOOK_SECRET = 'sandbox-webhook-secret-local-only';
export const DEMO_ACCOUNT_EMAIL = 'demo@sandbox.local';
export const DEMO_HOST = '127.0.0.1';

/**
 * Fast enough that every shipment is delivered within the run, slow enough to follow: slower
 * than the status sync, so the sync sees every step (shipped before delivered) and Shopify shows
 * each one.
 */
export const AUTO_ADVANCE_MS = 2_500;

/** A fresh prefix per run, so the demo never reads or deletes another connector's keys. */
export function demoPrefix(): string {
  return `demo-${randomBytes(4).toString('hex')}`;
}

/** Bull Board's login for this run: a fresh password each time, printed with the board's address. */
export const DEMO_ADMIN_USER = 'demo';
export function demoAdminPassword(): string {
  return randomBytes(9).toString('base64url');
}

/** The status sync's pace in the demo: faster than the sandbox's shipments move (AUTO_ADVANCE_MS). */
export const DEMO_SYNC_INTERVAL_MS = 2_000;

export interface DemoEnvInput {
  redisUrl: string;
  /** Bull Board's password; without it the board is not mounted. */
  adminPassword?: string;
  prefix: string;
  port: number;
  partnerUrl: string;
  partnerToken: string;
  storeUrl: string;
}

/** The environment `loadConfig` parses for the demo's connector: the same path `start` takes. */
export function demoEnv(input: DemoEnvInput): Record<string, string> {
  return {
    LOG_LEVEL: 'warn',
    PORT: String(input.port),
    HOST: DEMO_HOST,
    REDIS_URL: input.redisUrl,
    QUEUE_PREFIX: input.prefix,
    PARTNER_API_URL: input.partnerUrl,
    PARTNER_API_TOKEN: input.partnerToken,
    SHOPIFY_SHOP: DEMO_SHOP,
    SHOPIFY_ACCESS_TOKEN: DEMO_STORE_TOKEN,
    SHOPIFY_WEBHOOK_SECRET: DEMO_WEBHOOK_SECRET,
    SHOPIFY_ADMIN_API_URL: input.storeUrl,
    // One pass at start (BullMQ runs an `every` scheduler at once); no second pass mid-demo.
    ORDER_POLL_INTERVAL_MS: String(10 * 60_000),
    // The seeded orders are days old: the first pass leaves them, as on a store the connector is
    // new to, so the demo's backfill step is what finds them.
    RECONCILE_FIRST_LOOKBACK_DAYS: '1',
    // A provider hiccup is retried after about a second instead of 30 s, so the run stays short.
    CREATE_BACKOFF_MS: '1000',
    CREATE_BACKOFF_MAX_MS: '5000',
    CREATE_ATTEMPTS: '5',
    SYNC_INTERVAL_MS: String(DEMO_SYNC_INTERVAL_MS),
    ...(input.adminPassword
      ? { ADMIN_USER: DEMO_ADMIN_USER, ADMIN_PASSWORD: input.adminPassword }
      : {}),
    SENDER_NAME: 'Lagerekspedition',
    SENDER_COMPANY: 'Demo Shop ApS',
    SENDER_PHONE: '+4570203040',
    SENDER_EMAIL: 'lager@demo-shop.example',
    SENDER_STREET: 'Lagervej 2',
    SENDER_CITY: 'Odense SØ',
    SENDER_POSTAL_CODE: '5220',
    SENDER_COUNTRY_CODE: 'DK',
    // The provider collects from both of the fake store's own locations.
    COLLECT_FROM_LOCATIONS: 'Shop location,Aarhus warehouse',
  };
}
