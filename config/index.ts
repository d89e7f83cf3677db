import { existsSync } from 'node:fs';
import { z } from 'zod';

/** The only module that reads `process.env`; everything else receives the frozen result. */

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .positive('must be greater than 0');

const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0),
);

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .transform((v) => v.replace(/\/+$/, ''));

const nonEmpty = z.string().trim().min(1, 'must not be empty');

const stringMap = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
      return z.NEVER;
    }
  })
  .pipe(
    z.record(z.string().trim().min(1), z.string().trim().min(1), {
      error: 'must be a JSON object of names to texts',
    }),
  );

/** `hint` is shown when the variable is missing or bad. */
const variables = {
  LOG_LEVEL: {
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    hint: 'one of fatal, error, warn, info, debug, trace, silent',
  },
  LOG_FORMAT: {
    schema: z.enum(['auto', 'json', 'pretty']).default('auto'),
    hint: 'auto (readable lines on a terminal, JSON otherwise), json or pretty',
  },
  PORT: { schema: positiveInt.max(65535).default(3000), hint: 'the HTTP port for webhooks' },
  HOST: { schema: nonEmpty.default('0.0.0.0'), hint: 'the address the HTTP server binds' },
  PUBLIC_URL: {
    schema: httpUrl.optional(),
    hint: 'the address Shopify reaches this connector at, e.g. https://connector.example.com (for `connector setup`)',
  },

  ADMIN_USER: {
    schema: nonEmpty.optional(),
    hint: 'user name for Bull Board at /admin/queues (with ADMIN_PASSWORD; unset, no board)',
  },
  ADMIN_PASSWORD: {
    schema: z.string().min(12, 'must be at least 12 characters').optional(),
    hint: 'password for Bull Board at /admin/queues, at least 12 characters (with ADMIN_USER)',
  },
  ADMIN_READ_ONLY: {
    schema: bool.default(false),
    hint: 'true to show Bull Board without retry, clean, pause or delete',
  },

  METRICS_TOKEN: {
    schema: z.string().min(16, 'must be at least 16 characters').optional(),
    hint: 'bearer token /metrics and /status ask for, at least 16 characters (required when they share a PORT bound beyond loopback)',
  },
  ADMIN_PORT: {
    schema: positiveInt.max(65535).optional(),
    hint: 'a port of its own for /metrics, /status and Bull Board, off the webhook PORT (unset: they share PORT)',
  },
  ADMIN_HOST: {
    schema: nonEmpty.optional(),
    hint: 'the address the ADMIN_PORT listener binds (default 127.0.0.1: this machine only)',
  },

  REDIS_URL: {
    schema: z
      .string()
      .regex(
        /^rediss?(\+cluster)?:\/\//,
        'must start with redis://, rediss:// (TLS), redis+cluster:// or rediss+cluster://',
      )
      .default('redis://127.0.0.1:6379'),
    hint: 'e.g. redis://127.0.0.1:6379, rediss://… for TLS, rediss+cluster://node-1:6379,node-2:6379 for a Redis Cluster',
  },
  QUEUE_PREFIX: {
    schema: z
      .string()
      .regex(
        /^(\{[A-Za-z0-9_-]+\}|[A-Za-z0-9_-]+)$/,
        'letters, digits, _ and - only, optionally wrapped in braces as a hash tag ({connector})',
      )
      .default('connector'),
    hint: 'the BullMQ key prefix; give each connector sharing a Redis its own; on a Redis Cluster wrap it in braces, e.g. {connector}',
  },

  PARTNER_API_URL: {
    schema: httpUrl,
    hint: 'the provider base address including /api/v1, e.g. https://partner.example.com/api/v1',
  },
  PARTNER_API_TOKEN: {
    schema: nonEmpty,
    hint: 'the token printed by `connector token`',
  },
  PARTNER_RATE_LIMIT: {
    schema: positiveInt.default(60),
    hint: 'requests allowed per window for this token',
  },
  PARTNER_RATE_WINDOW_MS: {
    schema: positiveInt.default(60_000),
    hint: 'the rate window in milliseconds',
  },
  PARTNER_SYNC_RESERVE: {
    // An order takes a create and a bit over one sync request: below half, creates starve sync.
    schema: z.coerce.number().min(0).max(0.9).default(0.6),
    hint: 'share of the request budget kept for status sync while it waits, 0 to 0.9',
  },
  PARTNER_RETRY_AFTER_DEFAULT_MS: {
    schema: positiveInt.default(60_000),
    hint: 'how long to pause after a 429 that has no Retry-After header',
  },
  PARTNER_RETRY_AFTER_MAX_MS: {
    schema: positiveInt.default(900_000),
    hint: 'the longest pause a 429 Retry-After may impose, in milliseconds (longer ones are capped)',
  },
  PARTNER_TIMEOUT_MS: {
    schema: positiveInt.default(15_000),
    hint: 'timeout of one partner request in milliseconds',
  },

  SHOPIFY_SHOP: {
    schema: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, 'must look like name.myshopify.com'),
    hint: 'the shop domain, name.myshopify.com',
  },
  SHOPIFY_ACCESS_TOKEN: {
    schema: nonEmpty.optional(),
    hint: 'Admin API access token of a custom app (or set SHOPIFY_CLIENT_ID and SHOPIFY_CLIENT_SECRET)',
  },
  SHOPIFY_CLIENT_ID: { schema: nonEmpty.optional(), hint: 'the app client id' },
  SHOPIFY_CLIENT_SECRET: { schema: nonEmpty.optional(), hint: 'the app client secret' },
  SHOPIFY_WEBHOOK_SECRET: {
    schema: nonEmpty.optional(),
    hint: 'the secret Shopify signs webhooks with (defaults to SHOPIFY_CLIENT_SECRET)',
  },
  SHOPIFY_API_VERSION: {
    schema: z
      .string()
      .regex(/^\d{4}-\d{2}$/, 'must look like 2026-10')
      .default('2026-10'),
    hint: 'the Admin API version',
  },
  SHOPIFY_ADMIN_API_URL: {
    schema: httpUrl.optional(),
    hint: 'optional origin every Admin API request goes to instead of https://{shop}',
  },
  SHOPIFY_RESERVE_SHARE: {
    schema: z.coerce.number().min(0).max(0.9).default(0),
    hint: "share of the shop's Admin API bucket (points and refill) the connector leaves unused, as headroom for the merchant's own scripts on the same app, 0 to 0.9",
  },
  SHOPIFY_FOLLOW_UP_RESERVE: {
    // Two thirds of an order's points follow registration: below that, follow-ups starve.
    schema: z.coerce.number().min(0).max(0.9).default(0.8),
    hint: "share of the shop's Admin API points kept for follow-up writes (progress, fulfilment, delivery, status) while they wait: up to it they go ahead of new orders' registration, 0 to 0.9",
  },

  ORDER_POLL_INTERVAL_MS: {
    schema: positiveInt.default(300_000),
    hint: 'how often missed orders are reconciled, in milliseconds',
  },
  ORDER_POLL_OVERLAP_MS: {
    schema: positiveInt.default(600_000),
    hint: 'how far before the watermark each reconciliation looks again',
  },
  RECONCILE_FIRST_LOOKBACK_DAYS: {
    schema: positiveInt.max(365).default(30),
    hint: 'days the first reconciliation looks back when Redis holds no watermark (first start, or data lost)',
  },
  ELIGIBLE_FINANCIAL_STATUSES: {
    schema: list.transform((statuses) => statuses.map((s) => s.toLowerCase())).default(['paid']),
    hint: 'comma-separated financial statuses ready to ship, e.g. paid,partially_refunded',
  },
  SKIP_TEST_ORDERS: { schema: bool.default(true), hint: 'true to skip test orders' },
  INCLUDE_TAGS: {
    schema: list.default([]),
    hint: 'comma-separated; when set, only orders with one of these tags ship',
  },
  EXCLUDE_TAGS: {
    schema: list.default([]),
    hint: 'comma-separated; orders with any of these tags never ship',
  },

  SENDER_NAME: { schema: nonEmpty, hint: 'contact name at the warehouse' },
  SENDER_COMPANY: { schema: nonEmpty.optional(), hint: 'the merchant company name' },
  SENDER_PHONE: { schema: nonEmpty, hint: 'warehouse phone number' },
  SENDER_EMAIL: { schema: z.email('must be an email address').optional(), hint: 'warehouse email' },
  SENDER_STREET: { schema: nonEmpty, hint: 'warehouse street and number' },
  SENDER_CITY: { schema: nonEmpty, hint: 'warehouse city' },
  SENDER_POSTAL_CODE: { schema: nonEmpty, hint: 'warehouse postal code' },
  SENDER_COUNTRY_CODE: {
    schema: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'must be a two-letter ISO country code')
      .transform((v) => v.toUpperCase()),
    hint: 'ISO 3166-1 alpha-2, e.g. DK',
  },
  SEND_RECEIVER_EMAIL: {
    schema: bool.default(false),
    hint: "true to send the buyer's email (the provider then notifies the receiver)",
  },
  DOCUMENT_TAG: {
    schema: nonEmpty.default('document'),
    hint: 'orders with this tag ship as order_type document',
  },
  CONTENT_DESCRIPTION: {
    schema: nonEmpty.optional(),
    hint: "English description of goods; defaults to the products' types",
  },
  DEFAULT_WEIGHT_KG: {
    schema: z.coerce.number().min(0.1).max(30).default(0.5),
    hint: 'weight used for a line item without one, in kg',
  },
  COLLECT_FROM_LOCATIONS: {
    schema: list.default([]),
    hint: "comma-separated Shopify location ids or names the provider collects parcels from; empty: every location of the merchant's own",
  },
  SHIP_PICKUP_POINTS: {
    schema: bool.default(false),
    hint: "true to register pickup-point deliveries (parcel shops) to the order's shipping address; Shopify does not say reliably that it holds the pickup point's",
  },
  DEFAULT_LENGTH_CM: {
    schema: z.coerce.number().positive().max(120).default(30),
    hint: 'box length, cm',
  },
  DEFAULT_WIDTH_CM: {
    schema: z.coerce.number().positive().max(50).default(20),
    hint: 'box width, cm',
  },
  DEFAULT_HEIGHT_CM: {
    schema: z.coerce.number().positive().max(50).default(10),
    hint: 'box height, cm',
  },

  SYNC_INTERVAL_MS: {
    schema: positiveInt.min(1_000, 'must be at least 1000').default(300_000),
    hint: "how often the provider's statuses and tracking are synced to Shopify, in milliseconds",
  },
  SYNC_LOOKBACK_DAYS: {
    schema: positiveInt.max(365).default(60),
    hint: 'days the sync looks back at most for shipments that are not delivered or cancelled',
  },
  SYNC_REPORT_PROGRESS: {
    schema: bool.default(true),
    hint: 'true to report "in progress" on the Shopify order when the provider starts processing',
  },
  SYNC_STATUS_METAFIELDS: {
    schema: z
      .enum(['unshown', 'always'], { error: 'must be unshown or always' })
      .default('unshown'),
    hint: "unshown: the order's partner_shipment status metafields hold a status only where Shopify cannot show it itself; always: every status, for themes, Flow or apps that read them (10 more points a write)",
  },
  FULFILLMENT_NOTIFY_CUSTOMER: {
    schema: bool.default(true),
    hint: 'true to have Shopify send the customer its shipping email when the order is fulfilled',
  },
  TRACKING_COMPANIES: {
    schema: stringMap.default({}),
    hint: 'JSON: provider carrier name → Shopify tracking company, e.g. {"PN Parcel":"PostNord DK"}',
  },
  TRACKING_URL_TEMPLATES: {
    schema: stringMap
      .refine(
        (map) => Object.values(map).every((url) => /^https?:\/\/.*\{number\}/.test(url)),
        'each template must be an http(s) URL containing {number}',
      )
      .default({}),
    hint: 'JSON: provider carrier name → tracking URL with {number}, e.g. {"Bring":"https://tracking.bring.com/tracking/{number}"}',
  },

  RECORD_RETENTION_DAYS: {
    schema: positiveInt.max(3650).default(90),
    hint: 'days an order record is kept after its last change (skipped orders: 30 days at most)',
  },

  CREATE_ATTEMPTS: {
    schema: positiveInt.default(15),
    hint: 'attempts for a shipment create that meets 5xx or network errors (15 cover over 6 h)',
  },
  CREATE_BACKOFF_MS: {
    schema: positiveInt.default(30_000),
    hint: 'first retry delay in milliseconds; doubles each attempt',
  },
  CREATE_BACKOFF_MAX_MS: {
    schema: positiveInt.default(3_600_000),
    hint: 'the longest delay between two attempts, in milliseconds',
  },

  INTERRUPTED_JOB_RETRY_MS: {
    schema: positiveInt.min(1_000).default(600_000),
    hint: 'wait before a job cut off mid-run more often than allowed (crashes) runs again; doubles, 3 times',
  },

  CREATE_CONCURRENCY: {
    schema: positiveInt.max(256).default(16),
    hint: 'shipment creates each process runs at a time (the partner budget still sets the pace)',
  },
  MARK_CONCURRENCY: {
    schema: positiveInt.max(256).default(8),
    hint: 'writes of the order number onto Shopify orders each process runs at a time',
  },
  SYNC_WRITE_CONCURRENCY: {
    schema: positiveInt.max(256).default(4),
    hint: 'status, fulfilment and delivery writes to Shopify each process runs at a time, per kind',
  },

  REDIS_ALLOW_EVICTION: {
    schema: bool.default(false),
    hint: 'true to run the workers although Redis may evict keys (maxmemory-policy other than noeviction): queued orders, records and write locks can then vanish',
  },
} as const;

export type VariableName = keyof typeof variables;
export const variableNames = Object.keys(variables) as VariableName[];

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Configuration is invalid (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map((p) => `  - ${p}`).join('\n') +
        '\nSet these in the environment or in .env (see .env.example).',
    );
    this.name = 'ConfigError';
  }
}

type Output<N extends VariableName> = z.output<(typeof variables)[N]['schema']>;
type Values<N extends VariableName> = { [K in N]: Output<K> };

function parseVariables<N extends VariableName>(env: Env, names: readonly N[]) {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const name of names) {
    const { schema, hint } = variables[name];
    // Empty means unset, as in most .env tooling.
    const raw = env[name] === '' ? undefined : env[name];
    const result = (schema as z.ZodType).safeParse(raw);
    if (result.success) {
      values[name] = result.data;
    } else {
      const reason =
        raw === undefined
          ? 'is required'
          : `is invalid (${result.error.issues[0]?.message ?? 'bad value'})`;
      problems.push(`${name} ${reason}: ${hint}`);
    }
  }
  return { values: values as Values<N>, problems };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

function part<N extends VariableName, T>(
  names: readonly N[],
  build: (v: Values<N>, problems: string[]) => T,
) {
  return { names, build };
}

/** Setting names to variables, nested as the settings are. */
type FieldMap = { readonly [field: string]: VariableName | FieldMap };
type Fields<F> = {
  -readonly [K in keyof F]: F[K] extends VariableName ? Output<F[K]> : Fields<F[K]>;
};

/** A part whose settings are its variables as parsed, under other names. */
function fields<const F extends FieldMap>(map: F) {
  const names = (m: FieldMap): VariableName[] =>
    Object.values(m).flatMap((n) => (typeof n === 'string' ? [n] : names(n)));
  const build = (m: FieldMap, v: Record<string, unknown>): unknown =>
    Object.fromEntries(
      Object.entries(m).map(([key, n]) => [key, typeof n === 'string' ? v[n] : build(n, v)]),
    );
  return part(names(map), (v) => build(map, v) as Fields<F>);
}

/** A command loads only the parts it needs: reading records must not ask for the Shopify token. */
const PARTS = {
  logLevel: part(['LOG_LEVEL'], (v) => v.LOG_LEVEL),
  server: fields({ port: 'PORT', host: 'HOST', publicUrl: 'PUBLIC_URL' }),
  /** Undefined: /metrics, /status and Bull Board share the webhook port. */
  adminListener: part(['ADMIN_PORT', 'ADMIN_HOST', 'PORT'], (v, problems) => {
    if (v.ADMIN_HOST && v.ADMIN_PORT === undefined) {
      problems.push(
        'ADMIN_HOST needs ADMIN_PORT: the admin listener opens only on a port of its own',
      );
    }
    if (v.ADMIN_PORT !== undefined && v.ADMIN_PORT === v.PORT) {
      problems.push(
        `ADMIN_PORT must differ from PORT (${v.PORT}): leave it unset to serve /metrics, /status and Bull Board on PORT`,
      );
    }
    return v.ADMIN_PORT === undefined
      ? undefined
      : { port: v.ADMIN_PORT, host: v.ADMIN_HOST ?? '127.0.0.1' };
  }),
  /** Undefined: the board is not mounted. */
  admin: part(['ADMIN_USER', 'ADMIN_PASSWORD', 'ADMIN_READ_ONLY'], (v, problems) => {
    if (Boolean(v.ADMIN_USER) !== Boolean(v.ADMIN_PASSWORD)) {
      problems.push(
        'ADMIN_USER and ADMIN_PASSWORD go together: set both to open Bull Board at /admin/queues, or neither',
      );
    }
    return v.ADMIN_USER && v.ADMIN_PASSWORD
      ? { user: v.ADMIN_USER, password: v.ADMIN_PASSWORD, readOnly: v.ADMIN_READ_ONLY }
      : undefined;
  }),
  metrics: fields({ token: 'METRICS_TOKEN' }),
  redis: part(['REDIS_URL', 'QUEUE_PREFIX', 'REDIS_ALLOW_EVICTION'], (v, problems) => {
    // On a Redis Cluster multi-key commands need one slot, so the prefix must be a hash tag.
    const { REDIS_URL: url, QUEUE_PREFIX: prefix } = v;
    if (url && prefix && /^rediss?\+cluster:/i.test(url) && !prefix.startsWith('{')) {
      problems.push(
        `QUEUE_PREFIX: on a Redis Cluster (REDIS_URL ${url.split(':')[0]}://…) it must be wrapped in braces as a hash tag, e.g. {${prefix}}, so that every multi-key command stays in one slot`,
      );
    }
    return { url: v.REDIS_URL, queuePrefix: v.QUEUE_PREFIX, allowEviction: v.REDIS_ALLOW_EVICTION };
  }),
  partner: fields({
    apiUrl: 'PARTNER_API_URL',
    token: 'PARTNER_API_TOKEN',
    rateLimit: 'PARTNER_RATE_LIMIT',
    rateWindowMs: 'PARTNER_RATE_WINDOW_MS',
    syncReserve: 'PARTNER_SYNC_RESERVE',
    retryAfterDefaultMs: 'PARTNER_RETRY_AFTER_DEFAULT_MS',
    retryAfterMaxMs: 'PARTNER_RETRY_AFTER_MAX_MS',
    timeoutMs: 'PARTNER_TIMEOUT_MS',
  }),
  shopify: part(
    [
      'SHOPIFY_SHOP',
      'SHOPIFY_ACCESS_TOKEN',
      'SHOPIFY_CLIENT_ID',
      'SHOPIFY_CLIENT_SECRET',
      'SHOPIFY_WEBHOOK_SECRET',
      'SHOPIFY_API_VERSION',
      'SHOPIFY_ADMIN_API_URL',
      'SHOPIFY_RESERVE_SHARE',
      'SHOPIFY_FOLLOW_UP_RESERVE',
    ],
    (v, problems) => {
      const { SHOPIFY_ACCESS_TOKEN: accessToken = '', SHOPIFY_CLIENT_ID: clientId } = v;
      const clientSecret = v.SHOPIFY_CLIENT_SECRET;
      const auth =
        accessToken || !clientId || !clientSecret
          ? { kind: 'accessToken' as const, accessToken }
          : { kind: 'clientCredentials' as const, clientId, clientSecret };
      if (!accessToken && auth.kind === 'accessToken') {
        problems.push(
          'SHOPIFY_ACCESS_TOKEN is required unless both SHOPIFY_CLIENT_ID and SHOPIFY_CLIENT_SECRET are set',
        );
      }
      const webhookSecret = v.SHOPIFY_WEBHOOK_SECRET ?? v.SHOPIFY_CLIENT_SECRET;
      if (!webhookSecret) {
        problems.push(
          'SHOPIFY_WEBHOOK_SECRET is required (or SHOPIFY_CLIENT_SECRET, which Shopify signs webhooks with)',
        );
      }
      return {
        shop: v.SHOPIFY_SHOP,
        auth,
        webhookSecret: webhookSecret as string,
        apiVersion: v.SHOPIFY_API_VERSION,
        adminApiUrl: v.SHOPIFY_ADMIN_API_URL,
        reserveShare: v.SHOPIFY_RESERVE_SHARE,
        followUpReserve: v.SHOPIFY_FOLLOW_UP_RESERVE,
      };
    },
  ),
  intake: fields({
    pollIntervalMs: 'ORDER_POLL_INTERVAL_MS',
    pollOverlapMs: 'ORDER_POLL_OVERLAP_MS',
    firstLookbackDays: 'RECONCILE_FIRST_LOOKBACK_DAYS',
  }),
  eligibility: fields({
    financialStatuses: 'ELIGIBLE_FINANCIAL_STATUSES',
    skipTestOrders: 'SKIP_TEST_ORDERS',
    includeTags: 'INCLUDE_TAGS',
    excludeTags: 'EXCLUDE_TAGS',
  }),
  shipment: fields({
    sender: {
      name: 'SENDER_NAME',
      company: 'SENDER_COMPANY',
      phone: 'SENDER_PHONE',
      email: 'SENDER_EMAIL',
      street: 'SENDER_STREET',
      city: 'SENDER_CITY',
      postalCode: 'SENDER_POSTAL_CODE',
      countryCode: 'SENDER_COUNTRY_CODE',
    },
    sendReceiverEmail: 'SEND_RECEIVER_EMAIL',
    documentTag: 'DOCUMENT_TAG',
    contentDescription: 'CONTENT_DESCRIPTION',
    defaultWeightKg: 'DEFAULT_WEIGHT_KG',
    collectFromLocations: 'COLLECT_FROM_LOCATIONS',
    shipPickupPoints: 'SHIP_PICKUP_POINTS',
    defaultBox: {
      lengthCm: 'DEFAULT_LENGTH_CM',
      widthCm: 'DEFAULT_WIDTH_CM',
      heightCm: 'DEFAULT_HEIGHT_CM',
    },
  }),
  records: fields({ retentionDays: 'RECORD_RETENTION_DAYS' }),
  sync: fields({
    intervalMs: 'SYNC_INTERVAL_MS',
    lookbackDays: 'SYNC_LOOKBACK_DAYS',
    reportProgress: 'SYNC_REPORT_PROGRESS',
    statusMetafields: 'SYNC_STATUS_METAFIELDS',
    notifyCustomer: 'FULFILLMENT_NOTIFY_CUSTOMER',
    tracking: { companies: 'TRACKING_COMPANIES', urlTemplates: 'TRACKING_URL_TEMPLATES' },
  }),
  createJob: fields({
    attempts: 'CREATE_ATTEMPTS',
    backoff: { firstMs: 'CREATE_BACKOFF_MS', maxMs: 'CREATE_BACKOFF_MAX_MS' },
  }),
  interruptedJobs: fields({ firstRetryDelayMs: 'INTERRUPTED_JOB_RETRY_MS' }),
  concurrency: fields({
    create: 'CREATE_CONCURRENCY',
    mark: 'MARK_CONCURRENCY',
    syncWrite: 'SYNC_WRITE_CONCURRENCY',
  }),
};

type Parts = typeof PARTS;
export type ConfigPart = keyof Parts;
export type Config = { readonly [K in ConfigPart]: ReturnType<Parts[K]['build']> };

/** Throws one ConfigError listing every problem. */
export function loadSettings<K extends ConfigPart>(
  parts: readonly K[],
  env: Env = process.env,
): Pick<Config, K> {
  const wanted = new Set(parts.flatMap((p) => PARTS[p].names as readonly VariableName[]));
  const { values, problems } = parseVariables(
    env,
    variableNames.filter((name) => wanted.has(name)),
  );
  const settings: Record<string, unknown> = {};
  for (const p of parts) settings[p] = PARTS[p].build(values as never, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return deepFreeze(settings) as Pick<Config, K>;
}

export function loadConfig(env: Env = process.env): Config {
  return loadSettings(Object.keys(PARTS) as ConfigPart[], env);
}

/** For what runs without a configuration (logging); undefined when unset or bad. */
export function lenientSetting<N extends VariableName>(name: N): Output<N> | undefined {
  return parseVariables(process.env, [name]).values[name];
}

const LOOPBACK_HOST = /^(127(\.\d{1,3}){3}|::1|\[::1\]|localhost)$/;

/** Open /metrics and /status beyond loopback tell anyone queue states and Shopify's errors. */
export function adminSurfaceProblems(config: Config): string[] {
  if (config.adminListener || config.metrics.token || LOOPBACK_HOST.test(config.server.host)) {
    return [];
  }
  return [
    `HOST ${config.server.host} opens /metrics and /status to anyone who reaches PORT ${config.server.port}, the webhook port. Set ADMIN_PORT to serve them (and Bull Board) on a listener of their own (on 127.0.0.1 unless ADMIN_HOST says otherwise), or set METRICS_TOKEN (at least 16 characters) for them to ask for, or bind HOST to 127.0.0.1 behind a proxy`,
  ];
}

/** The environment wins over `.env`, as in Docker and systemd. */
export function loadDotEnv(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}
