import { timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import fastifyBasicAuth from '@fastify/basic-auth';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config/index.js';
import type { Logger } from '../log.js';
import { digest } from './admin-token.js';
import { boardAuditHooks } from './board-audit.js';
import { FRAME_HEADERS, refuseCrossSite } from './board-guard.js';
import { orderIdOfJob, shopifyOrderUrl } from './board-jobs.js';
import { LoginThrottle } from './board-login.js';
import { ORDER_SEARCH_PATH, type OrderSearchDeps, orderSearchRoutes } from './order-search.js';

export const BOARD_PATH = '/admin/queues';

/** `readOnly`: writes answer 405. */
export type AdminLogin = NonNullable<Config['admin']>;

export interface BoardDeps extends Omit<OrderSearchDeps, 'boardPath'> {
  queues: readonly Queue[];
  login: AdminLogin;
  logger: Logger;
  throttle?: LoginThrottle;
}

/** Register it in its own scope: the hooks then guard these routes only. */
export async function boardRoutes(app: FastifyInstance, deps: BoardDeps): Promise<void> {
  const log = deps.logger.child({ module: 'board' });
  const throttle = deps.throttle ?? new LoginThrottle();
  const expectedUser = digest(deps.login.user);
  const expectedPassword = digest(deps.login.password);

  app.addHook('onRequest', async (request, reply) => {
    reply.headers(FRAME_HEADERS);
    const waitMs = throttle.waitMs(request.ip);
    if (waitMs <= 0) return;
    const seconds = Math.ceil(waitMs / 1000);
    await reply
      .code(429)
      .header('retry-after', String(seconds))
      .send({ error: `Too many wrong logins: try again in ${seconds} s.` });
  });
  await app.register(fastifyBasicAuth, {
    authenticate: { realm: 'Shipment connector admin' },
    async validate(user, password, request) {
      // Both, always, in constant time: a mismatch says nothing about which or where.
      const userOk = timingSafeEqual(digest(user), expectedUser);
      const passwordOk = timingSafeEqual(digest(password), expectedPassword);
      if (userOk && passwordOk) {
        // basic-auth takes any value resolved here for an error.
        throttle.succeed(request.ip);
        return;
      }
      const failures = throttle.fail(request.ip);
      // Neither value is logged: a password typed as user name is a secret too.
      log.warn({ rightUser: userOk, failures }, 'wrong Bull Board login refused');
      return new Error('Wrong user name or password');
    },
  });
  app.addHook('onRequest', app.basicAuth);
  app.addHook('onRequest', refuseCrossSite);

  const serverAdapter = new FastifyAdapter().setBasePath(BOARD_PATH);
  createBullBoard({
    queues: deps.queues.map(
      (queue) =>
        new BullMQAdapter(queue, {
          readOnlyMode: deps.login.readOnly,
          allowRetries: !deps.login.readOnly,
          externalJobUrl: (job) => {
            const orderId = orderIdOfJob(job);
            // The board shows no link for undefined.
            if (!orderId) return undefined as unknown as { href: string };
            return { displayText: 'Shopify order', href: shopifyOrderUrl(deps.shop, orderId) };
          },
        }),
    ),
    serverAdapter,
    options: {
      uiConfig: {
        boardTitle: 'Shipment connector',
        miscLinks: [{ text: 'Find an order', url: ORDER_SEARCH_PATH }],
      },
      handlerHooks: boardAuditHooks({ ...deps, logger: log }),
    },
  });
  await app.register(serverAdapter.registerPlugin(), { prefix: BOARD_PATH });
  await orderSearchRoutes(app, { ...deps, boardPath: BOARD_PATH });
}
