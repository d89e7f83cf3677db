/**
 * What the benchmarks run against: Redis, the partner sandbox and fake store, and the state
 * they seed and leave behind.
 */
import type { Redis } from 'ioredis';
import type { JobContext } from '../jobs/context.js';
import { statusVersion } from '../jobs/shipment-updates/follow-ups.js';
import { SYNC_PAGE_SIZE } from '../jobs/sync-shipments/cycle.js';
import { type LocalRedis, localRedis, NoRedisError } from '../src/demo/private-redis.js';
import { furthestStage } from '../src/domain/shipment-progress.js';
import { parsePartnerTimestamp } from '../src/partner/time.js';
import { scanKeys } from '../src/queue/redis.js';
import { type PartnerSandbox, startPartnerSandbox } from '../src/sandbox/partner/index.js';
import {
  type FakeStore,
  type FakeStoreOptions,
  startFakeStore,
} from '../src/sandbox/store/index.js';
import { BENCH_STORE } from './settings.js';

/**
 * Redis on REDIS_URL, or a private redis-server for the run when none answers there; without
 * either, says why and exits 69 (EX_UNAVAILABLE).
 */
export async function startLocalRedis(): Promise<LocalRedis> {
  return localRedis({ url: process.env.REDIS_URL }).catch((error) => {
    if (!(error instanceof NoRedisError)) throw error;
    console.error(error.message);
    process.exit(69);
  });
}

/** Deletes every key under the prefix (a run's queues, records and budgets). */
export async function dropKeys(redis: Redis, prefix: string): Promise<void> {
  for await (const keys of scanKeys(redis, `${prefix}:*`)) await redis.unlink(...keys);
}

/** A local partner sandbox whose rate limit is far above the traffic: not what is measured. */
export function startBenchSandbox(): Promise<PartnerSandbox> {
  return startPartnerSandbox({ rateLimit: 1_000_000, rateWindowMs: 60_000 });
}

/** A local fake store serving BENCH_STORE; its bundled fixture orders unless `orders` says. */
export function startBenchStore(options: Partial<FakeStoreOptions> = {}): Promise<FakeStore> {
  return startFakeStore({ ...BENCH_STORE, ...options });
}

/**
 * Records every shipment the partner lists as earlier sync cycles would have left it: followed,
 * its status already written to Shopify, the last cycle five minutes ago.
 */
export async function followListedShipments(
  context: Pick<JobContext, 'partner' | 'tracking'>,
): Promise<void> {
  const { partner, tracking } = context;
  for (let page = 1; ; page += 1) {
    const answer = await partner.listShipments({ perPage: SYNC_PAGE_SIZE, page });
    await Promise.all(
      answer.data.map(async (item) => {
        const updatedAtMs = parsePartnerTimestamp(item.updated_at)!.getTime();
        const side = {
          orderNumber: item.order_number,
          status: item.status,
          updatedAt: item.updated_at,
          updatedAtMs,
          stage: furthestStage(undefined, item.status),
          createdAtMs: updatedAtMs,
        };
        await tracking.track(item.reference, side);
        await tracking.saveShopifySide(item.reference, {
          writtenStatus: statusVersion({ reference: item.reference, ...side }),
        });
      }),
    );
    if (page * SYNC_PAGE_SIZE >= answer.meta.total) break;
  }
  await tracking.finishCycle({ startedAtMs: Date.now() - 5 * 60_000 });
}
