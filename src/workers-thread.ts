import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { Config } from '../config/index.js';
import type { Logger } from './log.js';
import { withTimeout } from './queue/timeout.js';

/** So a webhook never waits behind a worker's CPU work; still one process for signals and logs. */

export type ThreadMetrics = MetricObjectWithValues<MetricValue<string>>[];

export interface WorkersThreadData {
  config: Config;
  log: { format: 'json' | 'pretty'; colour: boolean };
  shutdownGraceMs: number | undefined;
}

export type ToWorkersThread = { type: 'metrics'; id: number } | { type: 'close' };

export type FromWorkersThread =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'metrics'; id: number; metrics: ThreadMetrics }
  | { type: 'closed' };

export class WorkersThreadError extends Error {
  override name = 'WorkersThreadError';
}

/** Beyond the jobs' grace period, before `close` ends the thread anyway. */
const CLOSE_MARGIN_MS = 10_000;

/** The workers make garbage fast, and V8 lets a heap with a large limit grow before collecting. */
const HEAP_LIMIT_MB = 1024;

export async function startWorkersThread(
  data: WorkersThreadData,
  options: {
    logger: Logger;
    /** An error the thread did not survive: the service must stop. */
    onFatal?: (reason: string) => void;
  },
) {
  const extension = extname(fileURLToPath(import.meta.url));
  const entry = new URL(`./workers-thread-entry${extension}`, import.meta.url);
  // From source the entry is .ts: the thread registers tsx first.
  const fromSource = extension === '.ts';
  const thread = new Worker(
    fromSource
      ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
          .then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`
      : entry,
    {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB },
      eval: fromSource,
    },
  );
  const pending = new Map<number, (metrics: ThreadMetrics) => void>();
  let nextId = 0;
  let closing = false;
  let closed: (() => void) | undefined;

  const ready = new Promise<void>((resolve, reject) => {
    thread.on('message', (message: FromWorkersThread) => {
      if (message.type === 'ready') resolve();
      else if (message.type === 'failed') reject(new WorkersThreadError(message.message));
      else if (message.type === 'metrics') pending.get(message.id)?.(message.metrics);
      else if (message.type === 'closed') closed?.();
    });
    thread.on('error', (err) => {
      options.logger.error({ err }, 'the queue workers thread failed');
      reject(new WorkersThreadError(`the queue workers thread failed: ${err.message}`));
    });
    thread.on('exit', (code) => {
      const reason = `the queue workers thread ended (exit code ${code})`;
      reject(new WorkersThreadError(reason));
      closed?.();
      if (!closing) {
        closing = true;
        options.logger.fatal(`${reason}: the connector stops`);
        options.onFatal?.(reason);
      }
    });
  });
  await ready.catch(async (error) => {
    closing = true;
    await thread.terminate();
    throw error;
  });

  return {
    metrics() {
      const id = nextId++;
      const answer = new Promise<ThreadMetrics>((resolve) => {
        pending.set(id, resolve);
        thread.postMessage({ type: 'metrics', id } satisfies ToWorkersThread);
      });
      const late = () => new Error('the queue workers thread did not report its metrics in time');
      return withTimeout(answer, 5_000, late).finally(() => pending.delete(id));
    },
    async close() {
      if (closing) return;
      closing = true;
      const done = new Promise<void>((resolve) => {
        closed = resolve;
      });
      const limit = (data.shutdownGraceMs ?? 20_000) + CLOSE_MARGIN_MS;
      thread.postMessage({ type: 'close' } satisfies ToWorkersThread);
      // Past the limit the thread is ended all the same.
      await withTimeout(done, limit, () => new Error('closing timed out')).catch(() => {});
      await thread.terminate();
    },
  };
}
