import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { Config } from '../config/index.js';
import type { Logger } from './log.js';

/**
 * `connector start` runs the queue workers in a thread of their own, so that a webhook never
 * waits behind a worker's CPU work: the main thread keeps the HTTP server (intake, health, Bull
 * Board, /metrics) and answers within milliseconds while the workers drain a backlog on the
 * other core. One process still, one container: signals, logs and /metrics stay as they were.
 */

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

export interface WorkersThread {
  /** The thread's own metrics (the requests its workers sent), for /metrics to add up. */
  metrics(timeoutMs?: number): Promise<ThreadMetrics>;
  /** Lets active jobs finish (within the grace period), then ends the thread. */
  close(): Promise<void>;
}

export class WorkersThreadError extends Error {
  override name = 'WorkersThreadError';
}

/** How long `close` waits beyond the jobs' grace period before it ends the thread anyway. */
const CLOSE_MARGIN_MS = 10_000;

/**
 * The most the thread's heap may hold, in MB. V8 lets a heap whose limit is 2 GB or more (its
 * default with 8 GB of memory or more) grow to 4 times what it kept after a full collection
 * before it collects again, and 1.3 to 2 times below that. The workers keep about 30 MB (the
 * status sync holds one page at a time) but make garbage fast: at 1 GB the process peaks about
 * 60 MB lower through a sync cycle over 100,000 shipments (bench/RESULTS.md, "Redis footprint"),
 * and the limit stays far above what they keep. `--max-old-space-size` (NODE_OPTIONS) overrides it.
 */
const HEAP_LIMIT_MB = 1024;

/** Starts the thread and resolves once its workers run; rejects if they cannot start. */
export async function startWorkersThread(
  data: WorkersThreadData,
  options: {
    logger: Logger;
    /** The thread ended on its own (an error it did not survive): the service must stop. */
    onUnexpectedExit(reason: string): void;
  },
): Promise<WorkersThread> {
  const extension = extname(fileURLToPath(import.meta.url));
  const entry = new URL(`./workers-thread-entry${extension}`, import.meta.url);
  const settings = { workerData: data, resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB } };
  // Run from source (tsx), the entry is a .ts file: the thread registers tsx before loading it.
  const thread =
    extension === '.ts'
      ? new Worker(
          `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
            .then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`,
          { ...settings, eval: true },
        )
      : new Worker(entry, settings);
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
      reject(new WorkersThreadError(`the queue workers thread ended (exit code ${code})`));
      closed?.();
      if (!closing) {
        closing = true;
        options.onUnexpectedExit(`the queue workers thread ended (exit code ${code})`);
      }
    });
  });
  try {
    await ready;
  } catch (error) {
    closing = true;
    await thread.terminate();
    throw error;
  }

  return {
    metrics(timeoutMs = 5_000) {
      const id = nextId++;
      return new Promise<ThreadMetrics>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error('the queue workers thread did not report its metrics in time'));
        }, timeoutMs);
        pending.set(id, (metrics) => {
          clearTimeout(timer);
          pending.delete(id);
          resolve(metrics);
        });
        thread.postMessage({ type: 'metrics', id } satisfies ToWorkersThread);
      });
    },
    async close() {
      if (closing) return;
      closing = true;
      const done = new Promise<void>((resolve) => {
        closed = resolve;
      });
      const limit = (data.shutdownGraceMs ?? 20_000) + CLOSE_MARGIN_MS;
      let timer: NodeJS.Timeout | undefined;
      thread.postMessage({ type: 'close' } satisfies ToWorkersThread);
      await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, limit)))]);
      clearTimeout(timer);
      await thread.terminate();
    },
  };
}
