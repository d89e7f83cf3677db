/** Answers the main thread's requests for its metrics and for a graceful stop. */
import { parentPort, workerData } from 'node:worker_threads';
import { messageOf } from './error-message.js';
import { createLogger } from './log.js';
import { startService } from './service.js';
import type { FromWorkersThread, ToWorkersThread, WorkersThreadData } from './workers-thread.js';

const port = parentPort!;
const data = workerData as WorkersThreadData;
const send = (message: FromWorkersThread) => port.postMessage(message);

const logger = createLogger({ level: data.config.logLevel, ...data.log }).child({
  thread: 'workers',
});

try {
  const service = await startService(data.config, {
    logger,
    http: false,
    workers: true,
    isWorkersThread: true,
    shutdownGraceMs: data.shutdownGraceMs,
  });
  port.on('message', async (message: ToWorkersThread) => {
    if (message.type === 'metrics') {
      const metrics = await service.metrics.registry.getMetricsAsJSON();
      send({ type: 'metrics', id: message.id, metrics });
    } else if (message.type === 'close') {
      await service.close();
      send({ type: 'closed' });
      port.close();
    }
  });
  send({ type: 'ready' });
} catch (error) {
  logger.error({ err: error }, 'queue workers could not start');
  send({ type: 'failed', message: messageOf(error) });
  port.close();
}
