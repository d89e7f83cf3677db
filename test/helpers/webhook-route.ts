import { PartnerBudget } from '../../src/partner/budget.js';
import { StoreHealth } from '../../src/records/store-health.js';
import { buildServer } from '../../src/server/app.js';
import { WEBHOOK_PATH } from '../../src/server/webhook-route.js';
import { createWebhookVerifier } from '../../src/store/webhooks.js';
import { SHOP, type ShipmentStack, WEBHOOK_SECRET } from './shipment-stack.js';

/** The connector's own webhook route over the stack's parts, listening on a free port. */
export async function serveWebhooks(
  s: ShipmentStack,
): Promise<{ url: string; close: () => Promise<void> }> {
  const app = await buildServer({
    verify: createWebhookVerifier({ webhookSecret: WEBHOOK_SECRET, shop: SHOP }),
    redis: s.redis,
    prefix: s.prefix,
    counters: s.counters,
    acceptWebhook: (event, delivery) => s.parts.acceptWebhook(event, delivery, s.redis),
    budget: new PartnerBudget(s.redis, {
      token: 'webhook-test',
      limit: 60,
      windowMs: 60_000,
      keyPrefix: `${s.prefix}:webhook-budget`,
    }),
    storeHealth: new StoreHealth(s.redis, s.prefix),
    logger: s.logger,
    board: { queues: Object.values(s.queues), login: undefined },
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const close = async () => {
    const closed = app.close();
    // The store's deliveries keep their connections alive: without this, close waits for them.
    app.server.closeAllConnections();
    await closed;
  };
  return { url: `${address}${WEBHOOK_PATH}`, close };
}
