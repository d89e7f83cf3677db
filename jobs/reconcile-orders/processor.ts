import { randomUUID } from 'node:crypto';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../../src/log.js';
import { type ReconcileDeps, type ReconcileSummary, reconcileOrders } from './reconcile.js';

export const RECONCILE_SCHEDULER_ID = 'reconcile-orders';

export interface ReconcileProcessorDeps extends ReconcileDeps {
  redis: Redis;
  prefix: string;
  pollIntervalMs: number;
  overlapMs: number;
  logger: Logger;
  now?: () => Date;
}

/**
 * One reconciliation pass. The watermark is when the last complete pass started; each pass looks
 * back `overlapMs` before it, because Shopify's updated_at search is not instant. Runs from several
 * processes (or a slow pass meeting the next) are kept apart by a lock.
 */
export function reconcileProcessor(deps: ReconcileProcessorDeps) {
  const watermarkKey = `${deps.prefix}:reconcile:watermark`;
  const lockKey = `${deps.prefix}:reconcile:lock`;
  const now = deps.now ?? (() => new Date());

  return async (job: Job): Promise<ReconcileSummary | { outcome: 'already_running' }> => {
    const lockId = randomUUID();
    const lockMs = Math.max(deps.pollIntervalMs * 2, 60_000);
    if ((await deps.redis.set(lockKey, lockId, 'PX', lockMs, 'NX')) !== 'OK') {
      return { outcome: 'already_running' };
    }
    try {
      const started = now();
      const watermark = await deps.redis.get(watermarkKey);
      // The first pass looks back one day; older orders are for `connector backfill`.
      const from = watermark ? new Date(watermark) : new Date(started.getTime() - 24 * 3600_000);
      const since = new Date(from.getTime() - deps.overlapMs);
      const summary = await reconcileOrders(since, 'reconcile', {
        ...deps,
        logger: deps.logger.child({ jobId: job.id }),
      });
      await deps.redis.set(watermarkKey, started.toISOString());
      deps.logger.info({ since: since.toISOString(), ...summary }, 'reconciliation pass done');
      return summary;
    } finally {
      await deps.redis.eval(
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
        1,
        lockKey,
        lockId,
      );
    }
  };
}
