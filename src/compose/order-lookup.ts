import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../../config/index.js';
import type { Logger } from '../log.js';
import type { OrderLookup } from '../server/order-search.js';
import type { StoreClient } from '../store/types.js';
import { readStoredOrderStatus } from './order-status.js';

export function buildOrderLookup(deps: {
  redis: Redis;
  prefix: string;
  queues: readonly Queue[];
  findOrderByName: StoreClient['findOrderByName'];
}): OrderLookup {
  const byName = new Map(deps.queues.map((queue) => [queue.name, queue]));
  return {
    findByName: (name) => deps.findOrderByName(name),
    async jobsOf(orderId) {
      const { jobs } = await readStoredOrderStatus(deps.redis, deps.prefix, orderId);
      return Promise.all(
        jobs.map(async ({ finishedAt, ...job }) => ({
          ...job,
          name: (await byName.get(job.queue)?.getJob(job.id))?.name ?? job.queue,
        })),
      );
    },
  };
}

/** The HTTP side loads the Shopify library only when an admin searches by name. */
export function lazyFindOrderByName(shopify: Config['shopify'], logger: Logger) {
  let client: Promise<StoreClient> | undefined;
  return async (name: string) => {
    client ??= import('./clients.js').then(({ buildStoreClient }) =>
      buildStoreClient(shopify, logger),
    );
    return (await client).findOrderByName(name);
  };
}
