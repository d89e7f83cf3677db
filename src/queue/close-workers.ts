import type { Worker } from 'bullmq';
import type { Logger } from '../log.js';

/** A stopped job is picked up again once its lock expires. */
export async function closeWorkers(workers: Worker[], graceMs: number, logger: Logger) {
  let timer: NodeJS.Timeout | undefined;
  // A close that started gracefully cannot be forced later, so pause first and choose.
  const finished = Promise.all(workers.map((w) => w.pause())).then(() => true);
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), graceMs);
  });
  const inTime = await Promise.race([finished, expired]);
  clearTimeout(timer);
  if (!inTime) {
    logger.warn(
      { graceMs },
      'active jobs did not finish in time; stopping them (they run again later)',
    );
  }
  // Paused workers still hold their connections.
  await Promise.all(workers.map((w) => w.close(true)));
  return inTime ? 'finished' : 'forced';
}
