import type { Worker } from 'bullmq';
import type { Logger } from '../log.js';

/**
 * Lets active jobs finish for up to `graceMs`, then stops the workers anyway. A stopped job is
 * picked up again once its lock expires; every job here is safe to repeat.
 */
export async function closeWorkers(
  workers: Worker[],
  graceMs: number,
  logger: Logger,
): Promise<'finished' | 'forced'> {
  let timer: NodeJS.Timeout | undefined;
  // Pausing takes no new jobs and resolves once the active ones finish; a close that started
  // gracefully could not be forced later, so the choice is made before closing.
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
  // Paused workers still hold their connections: closing (at once, nothing is left to wait
  // for, or forced) is what lets the process exit.
  await Promise.all(workers.map((w) => w.close(true)));
  return inTime ? 'finished' : 'forced';
}
