/**
 * One connector process of the throughput benchmark: `connector start` as it runs (startService
 * from the environment the parent passes), silent. Tells the parent its address once it is up.
 */
import { loadConfig } from '../config/index.js';
import { createLogger } from '../src/log.js';
import { startService } from '../src/service.js';

const http = process.env.BENCH_HTTP === 'true';
const config = loadConfig(process.env);
const service = await startService(config, {
  logger: createLogger({ level: config.logLevel, format: 'json' }),
  http,
  // As `connector start` runs intake and workers together: the workers in a thread of their own.
  ...(http && process.env.BENCH_ONE_THREAD !== 'true'
    ? { workersThread: { log: { format: 'json', colour: false } } }
    : {}),
  shutdownGraceMs: 2_000,
});

process.once('SIGTERM', async () => {
  await service.close();
  process.exit(0);
});
process.send?.({ ready: true, url: service.url });
// The parent asks for the CPU this process has used (µs, every thread), to weigh it per order.
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
