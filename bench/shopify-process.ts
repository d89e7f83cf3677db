/**
 * One connector process of the Shopify budget benchmark: its own Redis connection and store
 * client, four workers reading an order whole and tagging it twice, until told to stop. With
 * BENCH_SHARED=1 every request takes its cost from the shared bucket model first; without, the
 * process knows only Shopify's THROTTLED answers (as before the shared model).
 */
import { Redis } from 'ioredis';
import { createLogger } from '../src/log.js';
import {
  SharedStoreBucket,
  StoreBudgetWaitError,
  StoreThrottledError,
} from '../src/store/index.js';
import { BENCH_STORE, benchStoreClient } from './settings.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const orderId = env('BENCH_ORDER_ID');
const shared = process.env.BENCH_SHARED === '1';
const redis = new Redis(env('BENCH_REDIS_URL'), { maxRetriesPerRequest: null });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const client = benchStoreClient(
  env('BENCH_STORE_URL'),
  createLogger({ level: 'silent' }),
  shared
    ? {
        bucket: new SharedStoreBucket(redis, {
          prefix: env('BENCH_PREFIX'),
          shop: BENCH_STORE.shop,
          reserveShare: Number(env('BENCH_RESERVE_SHARE')),
        }),
      }
    : {},
);

let stopping = false;
const stopped = { gaveUp: 0, deferred: 0 };

async function worker(n: number) {
  while (!stopping) {
    try {
      await client.getOrder(orderId);
      await client.addOrderTags(orderId, [`bench-${n}`]);
      await client.addOrderTags(orderId, [`bench-${n}-b`]);
    } catch (error) {
      // A job would go back to its queue for the wait, or retry later: the same here.
      if (error instanceof StoreBudgetWaitError) {
        stopped.deferred += 1;
        await sleep(error.waitMs);
      } else if (error instanceof StoreThrottledError) {
        stopped.gaveUp += 1;
      } else {
        throw error;
      }
    }
  }
}

const running = Array.from({ length: 4 }, (_, n) => worker(n));
process.once('message', async () => {
  stopping = true;
  await Promise.all(running);
  process.send?.(stopped);
  await redis.quit();
  process.exit(0);
});
process.send?.('ready');
