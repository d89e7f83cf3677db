import { createHash, timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import fastifyBasicAuth from '@fastify/basic-auth';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';

export const BOARD_PATH = '/admin/queues';

export interface AdminLogin {
  user: string;
  password: string;
  /** Bull Board's per-queue readOnlyMode: no retry, clean, pause or delete (writes answer 405). */
  readOnly: boolean;
}

export interface BoardDeps {
  /** Every queue of the job catalog, passed in by the composition root. */
  queues: readonly Queue[];
  login: AdminLogin;
}

/**
 * Bull Board at /admin/queues behind basic auth. Register it in its own scope: the auth hook
 * then guards the board's routes only, and the webhook and health routes stay open.
 */
export async function boardRoutes(app: FastifyInstance, deps: BoardDeps): Promise<void> {
  const expectedUser = digest(deps.login.user);
  const expectedPassword = digest(deps.login.password);
  await app.register(fastifyBasicAuth, {
    authenticate: { realm: 'Shipment connector admin' },
    async validate(user, password) {
      // Both compared, always, in constant time: a mismatch says nothing about which or where.
      const userOk = timingSafeEqual(digest(user), expectedUser);
      const passwordOk = timingSafeEqual(digest(password), expectedPassword);
      if (!(userOk && passwordOk)) return new Error('Wrong user name or password');
    },
  });
  app.addHook('onRequest', app.basicAuth);

  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(BOARD_PATH);
  createBullBoard({
    queues: deps.queues.map(
      (queue) =>
        new BullMQAdapter(queue, {
          readOnlyMode: deps.login.readOnly,
          // Jobs that failed for good (a refused order, say) are what admins retry here.
          allowRetries: !deps.login.readOnly,
        }),
    ),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Shipment connector' } },
  });
  await app.register(serverAdapter.registerPlugin(), { prefix: BOARD_PATH });
}

/** Fixed-length digests, so that timingSafeEqual never sees inputs of different lengths. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
