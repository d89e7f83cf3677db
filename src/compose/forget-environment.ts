import { scanKeys } from '../queue/redis.js';
import type { SharedParts } from './parts.js';

export class ForgetRefusedError extends Error {
  override name = 'ForgetRefusedError';
}

export async function describePrefix(parts: Pick<SharedParts, 'redis' | 'prefix'>) {
  let keys = 0;
  let records = 0;
  for await (const batch of scanPrefix(parts)) {
    keys += batch.length;
    records += batch.filter((key) => /:order:\d+$/.test(key)).length;
  }
  const registered = await parts.redis.zcard(`${parts.prefix}:orders:registered`);
  return { keys, records, registered };
}

/** Refused while a worker or job runs: one on the old environment would write records back. */
export async function forgetEnvironment(parts: Pick<SharedParts, 'redis' | 'prefix' | 'queues'>) {
  for (const queue of Object.values(parts.queues)) {
    const [workers, active] = await Promise.all([
      // CLIENT LIST may be disabled on managed Redis; active jobs still tell.
      queue.getWorkersCount().catch(() => 0),
      queue.getActiveCount(),
    ]);
    if (workers > 0 || active > 0) {
      throw new ForgetRefusedError(
        `The ${queue.name} queue under QUEUE_PREFIX=${parts.prefix} has ${workers} worker(s) connected and ${active} job(s) running: stop every connector process using this prefix, then try again.`,
      );
    }
  }
  let deletedKeys = 0;
  for await (const batch of scanPrefix(parts)) {
    if (batch.length > 0) deletedKeys += await parts.redis.unlink(...batch);
  }
  return { deletedKeys };
}

function scanPrefix({ redis, prefix }: Pick<SharedParts, 'redis' | 'prefix'>) {
  // QUEUE_PREFIX holds nothing a glob reads as a pattern.
  return scanKeys(redis, `${prefix}:*`);
}
