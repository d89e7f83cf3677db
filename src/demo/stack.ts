import type { Redis } from 'ioredis';
import { type Config, loadConfig } from '../../config/index.js';
import { buildStoreClient } from '../compose/clients.js';
import { buildSharedParts, type SharedParts } from '../compose/parts.js';
import { createLogger, type Logger } from '../log.js';
import { createRedis } from '../queue/redis.js';
import { type PartnerSandbox, startPartnerSandbox } from '../sandbox/partner/index.js';
import { type FakeStore, startFakeStore } from '../sandbox/store/index.js';
import { type RunningService, startService } from '../service.js';
import type { StoreClient } from '../store/types.js';
import { removeDemoKeys } from './cleanup.js';
import { freePort } from './free-port.js';
import { logLines } from './log-lines.js';
import {
  AUTO_ADVANCE_MS,
  DEMO_ACCOUNT_EMAIL,
  DEMO_ADMIN_USER,
  DEMO_HOST,
  DEMO_SHOP,
  DEMO_STORE_TOKEN,
  DEMO_WEBHOOK_SECRET,
  demoAdminPassword,
  demoEnv,
  demoPrefix,
} from './settings.js';

/** Everything the demo runs in one process, and what it needs to look inside. */
export interface DemoStack {
  readonly prefix: string;
  readonly partnerToken: string;
  readonly webhookUrl: string;
  /** Bull Board, and its login for this run. */
  readonly board: { url: string; user: string; password: string };
  readonly config: Config;
  /** The environment the demo's connector was configured from. */
  readonly env: Readonly<Record<string, string>>;
  readonly sandbox: PartnerSandbox;
  readonly store: FakeStore;
  readonly service: RunningService;
  /** The demo's own connection: records to narrate, queues for the backfill, cleanup. */
  readonly redis: Redis;
  readonly parts: SharedParts;
  readonly storeClient: StoreClient;
  readonly logger: Logger;
  /** Stops everything and removes the demo's Redis keys; returns how many there were. */
  close(): Promise<number>;
}

export async function startDemoStack(options: {
  redisUrl: string;
  print: (line: string) => void;
}): Promise<DemoStack> {
  const prefix = demoPrefix();
  const closers: (() => Promise<unknown>)[] = [];
  const redis = createRedis(options.redisUrl, 'worker');
  redis.on('error', () => {}); // the service's own connections report Redis trouble
  let partnerToken = '';
  let parts: SharedParts | undefined;
  const cleanup = async () => {
    for (const close of closers.reverse()) await close();
    try {
      const queues = parts ? Object.values(parts.queues) : [];
      return partnerToken ? await removeDemoKeys(redis, prefix, queues, partnerToken) : 0;
    } finally {
      await parts?.close();
      await redis.quit();
    }
  };

  try {
    const sandbox = await startPartnerSandbox({ autoAdvanceMs: AUTO_ADVANCE_MS });
    closers.push(() => sandbox.close());
    // A token of its own: the request budget in Redis is keyed by token (see cleanup.ts).
    partnerToken = sandbox.issueToken(DEMO_ACCOUNT_EMAIL, `connector-demo-${prefix}`);

    const port = await freePort(DEMO_HOST);
    const webhookUrl = `http://${DEMO_HOST}:${port}/webhooks/shopify`;
    const store = await startFakeStore({
      shop: DEMO_SHOP,
      accessToken: DEMO_STORE_TOKEN,
      webhookSecret: DEMO_WEBHOOK_SECRET,
      webhookUrl,
    });
    closers.push(() => store.close());

    const adminPassword = demoAdminPassword();
    const env = demoEnv({
      redisUrl: options.redisUrl,
      adminPassword,
      prefix,
      port,
      partnerUrl: sandbox.url,
      partnerToken,
      storeUrl: store.url,
    });
    const config = loadConfig(env);
    const logger = createLogger({ level: config.logLevel }, logLines(options.print));
    const service = await startService(config, { logger });
    closers.push(() => service.close());

    parts = buildSharedParts({ redis, prefix, settings: config, logger });
    return {
      prefix,
      partnerToken,
      webhookUrl,
      board: {
        url: `http://${DEMO_HOST}:${port}/admin/queues`,
        user: DEMO_ADMIN_USER,
        password: adminPassword,
      },
      config,
      env,
      sandbox,
      store,
      service,
      redis,
      parts,
      storeClient: buildStoreClient(config.shopify, logger),
      logger,
      close: cleanup,
    };
  } catch (error) {
    await cleanup().catch(() => {});
    throw error;
  }
}
