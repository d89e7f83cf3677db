import { type Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { MAX_STALLED_COUNT } from '../../src/compose/workers.js';
import { waitForJob } from './shipment-stack.js';

/**
 * Cuts a waiting job off mid-run `times` times, as a worker process that dies would: a worker
 * of its own takes the job (active, with a lock nobody renews) and never finishes it, and
 * BullMQ's stalled-job check, run every 100 ms here instead of the service's 30 s, puts it back
 * once the lock has lapsed. No other worker may be running on the queue.
 */
export async function interruptJob(
  connection: Redis,
  prefix: string,
  queue: Queue,
  jobId: string,
  times = 1,
): Promise<void> {
  for (let cut = 1; cut <= times; cut++) {
    const doomed = new Worker(queue.name, null, {
      connection,
      prefix,
      autorun: false,
      lockDuration: 200,
    });
    doomed.on('error', () => {});
    const job = await doomed.getNextJob(`doomed-${cut}`);
    await doomed.close(true);
    if (job?.id !== jobId) throw new Error(`expected to take ${jobId}, took ${job?.id}`);

    const checker = new Worker(queue.name, null, {
      connection,
      prefix,
      autorun: false,
      stalledInterval: 100,
      // The checking process decides when a job has stalled too often: the service's workers do.
      maxStalledCount: MAX_STALLED_COUNT,
    });
    checker.on('error', () => {});
    void checker.startStalledCheckTimer();
    try {
      await waitForJob(queue, jobId, 'waiting', { what: `interruption ${cut} to be noticed` });
    } finally {
      await checker.close();
    }
  }
}
