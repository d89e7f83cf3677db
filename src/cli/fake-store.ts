import type { Command } from 'commander';
import { z } from 'zod';
import { lenientSetting } from '../../config/index.js';
import { DEMO_SHOP, DEMO_STORE_TOKEN, DEMO_WEBHOOK_SECRET } from '../demo/settings.js';
import { createLogger } from '../log.js';
import { startFakeStore } from '../sandbox/store/index.js';
import { serveUntilStopped } from './parent-watch.js';

const optionsSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535),
  host: z.string().min(1),
  shop: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, 'must look like name.myshopify.com'),
  accessToken: z.string().min(1),
  webhookSecret: z.string().min(1),
  webhookUrl: z.url().optional(),
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().min(1).optional(),
  tokenTtlSeconds: z.coerce.number().int().positive().optional(),
  empty: z.boolean().optional(),
});

export function registerFakeStoreCommand(program: Command): void {
  program
    .command('fake-store')
    .description('run a local fake Shopify store (Admin GraphQL, client credentials, webhooks)')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '4020')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    // The defaults are the Docker sandbox profile's (docs/deployment.md): no flags needed.
    .option('--shop <domain>', 'the shop domain it pretends to be', DEMO_SHOP)
    .option('--access-token <token>', 'Admin API token it accepts', DEMO_STORE_TOKEN)
    .option('--webhook-secret <secret>', 'secret it signs webhooks with', DEMO_WEBHOOK_SECRET)
    .option('--webhook-url <url>', 'where it sends order webhooks by default')
    .option('--client-id <id>', 'client id accepted by client credentials')
    .option('--client-secret <secret>', 'client secret accepted by client credentials')
    .option('--token-ttl-seconds <s>', 'lifetime of client-credentials tokens')
    .option('--empty', 'start without the demo orders')
    .action(async (raw: Record<string, unknown>) => {
      const parsed = optionsSchema.safeParse(raw);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((i) => `  --${String(i.path[0])}: ${i.message}`);
        program.error(`Invalid fake-store options:\n${problems.join('\n')}`);
      }
      const { empty, ...options } = parsed.data;
      const store = await startFakeStore({
        ...options,
        ...(empty ? { orders: [] } : {}),
        logger: createLogger({ level: lenientSetting('LOG_LEVEL') ?? 'info', name: 'fake-store' }),
      });
      const orders = store.orders().map((o) => `${o.id} ${o.name}`);
      await serveUntilStopped('fake store', store, [
        `Fake store for ${store.shop} listening: SHOPIFY_ADMIN_API_URL=${store.url}`,
        `Connector settings (local only): SHOPIFY_SHOP=${store.shop} SHOPIFY_ADMIN_API_URL=${store.url} ` +
          `SHOPIFY_ACCESS_TOKEN=${options.accessToken} SHOPIFY_WEBHOOK_SECRET=${options.webhookSecret}`,
        `Orders: ${orders.join(', ') || 'none'}`,
        `Control: POST ${store.url}/_fake/orders {"order": {...}, "webhookUrl": "..."}, ` +
          `POST /_fake/orders/{id} {"markPaid": true} | {"cancel": true}, GET /_fake/mutations`,
        ...(options.webhookUrl ? [`Webhooks go to ${options.webhookUrl}`] : []),
      ]);
    });
}
