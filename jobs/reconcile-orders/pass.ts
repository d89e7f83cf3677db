import { randomUUID } from 'node:crypto';
import { deleteIfHeld } from '../../src/queue/redis.js';
import { CLOCK_SKEW_WARN_MS, redisTime } from '../../src/queue/redis-time.js';
import type { QueueContext } from '../context.js';
import { type ReconcileDeps, type ReconcileSummary, reconcileOrders } from './reconcile.js';

const DAY_MS = 24 * 3600_000;

export interface ReconcilePassDeps
  extends Pick<QueueContext, 'redis' | 'prefix' | 'settings'>,
    ReconcileDeps {
  /** Redis's clock (TIME) unless a test drives it; `now` is compared with it. */
  serverTime?: () => Promise<Date>;
}

/**
 * Looks back `pollOverlapMs` before the watermark: Shopify's updated_at search is not instant. The
 * start time is Redis's: a fast local clock would store a watermark in the future.
 */
export async function reconcilePass(
  deps: ReconcilePassDeps,
): Promise<ReconcileSummary | { outcome: 'already_running' }> {
  const { pollIntervalMs, pollOverlapMs, firstLookbackDays } = deps.settings.intake;
  const watermarkKey = `${deps.prefix}:reconcile:watermark`;
  const lockKey = `${deps.prefix}:reconcile:lock`;
  const serverTime = deps.serverTime ?? (() => redisTime(deps.redis));
  const now = deps.now ?? (() => new Date());

  const lockId = randomUUID();
  const lockMs = Math.max(pollIntervalMs * 2, 60_000);
  if ((await deps.redis.set(lockKey, lockId, 'PX', lockMs, 'NX')) !== 'OK') {
    return { outcome: 'already_running' };
  }
  try {
    const started = await serverTime();
    const skewMs = now().getTime() - started.getTime();
    if (Math.abs(skewMs) > CLOCK_SKEW_WARN_MS) {
      deps.logger.warn(
        { skewSeconds: Math.round(skewMs / 1000) },
        `this machine's clock is ${Math.round(Math.abs(skewMs) / 1000)} s ${skewMs > 0 ? 'ahead of' : 'behind'} Redis's: reconciliation goes by Redis's time, but fix the clock (NTP), as log times and timestamps written from here are off by as much`,
      );
    }
    const watermark = await deps.redis.get(watermarkKey);
    // No watermark: first start, or Redis lost its data and its jobs. Re-sending a registered order
    // is safe (same reference, the provider answers 200).
    const from = watermark
      ? new Date(watermark)
      : new Date(started.getTime() - firstLookbackDays * DAY_MS);
    if (!watermark) {
      deps.logger.warn(
        { lookbackDays: firstLookbackDays },
        'no reconciliation watermark in Redis (first start, or Redis lost its data): looking back RECONCILE_FIRST_LOOKBACK_DAYS',
      );
    }
    const since = new Date(from.getTime() - pollOverlapMs);
    const summary = await reconcileOrders(since, 'reconcile', deps);
    await deps.redis.set(watermarkKey, started.toISOString());
    deps.logger.info({ since: since.toISOString(), ...summary }, 'reconciliation pass done');
    return summary;
  } finally {
    await deleteIfHeld(deps.redis, lockKey, lockId);
  }
}
