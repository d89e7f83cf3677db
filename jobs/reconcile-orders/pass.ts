import { randomUUID } from 'node:crypto';
import type { QueueContext } from '../context.js';
import { type ReconcileDeps, type ReconcileSummary, reconcileOrders } from './reconcile.js';

export interface ReconcilePassDeps
  extends Pick<QueueContext, 'redis' | 'prefix' | 'settings'>,
    ReconcileDeps {
  now?: () => Date;
}

/**
 * One reconciliation pass. The watermark is when the last complete pass started; each pass looks
 * back `pollOverlapMs` before it, because Shopify's updated_at search is not instant. Runs from
 * several processes (or a slow pass meeting the next) are kept apart by a lock.
 */
export async function reconcilePass(
  deps: ReconcilePassDeps,
): Promise<ReconcileSummary | { outcome: 'already_running' }> {
  const { pollIntervalMs, pollOverlapMs } = deps.settings.intake;
  const watermarkKey = `${deps.prefix}:reconcile:watermark`;
  const lockKey = `${deps.prefix}:reconcile:lock`;
  const now = deps.now ?? (() => new Date());

  const lockId = randomUUID();
  const lockMs = Math.max(pollIntervalMs * 2, 60_000);
  if ((await deps.redis.set(lockKey, lockId, 'PX', lockMs, 'NX')) !== 'OK') {
    return { outcome: 'already_running' };
  }
  try {
    const started = now();
    const watermark = await deps.redis.get(watermarkKey);
    // The first pass looks back one day; older orders are for `connector backfill`.
    const from = watermark ? new Date(watermark) : new Date(started.getTime() - 24 * 3600_000);
    const since = new Date(from.getTime() - pollOverlapMs);
    const summary = await reconcileOrders(since, 'reconcile', deps);
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
}
