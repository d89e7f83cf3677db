/**
 * One connector process of the throughput benchmark: `connector start` as it runs (startService
 * from the environment the parent passes), silent. Tells the parent its address once it is up.
 */
import { loadConfig } from '../config/index.js';
import { createLogger } from '../src/log.js';
import { startService } from '../src/service.js';

const service = await startService(loadConfig(process.env), {
  logger: createLogger({ level: loadConfig(process.env).logLevel }),
  http: process.env.BENCH_HTTP === 'true',
  shutdownGraceMs: 2_000,
});

process.once('SIGTERM', async () => {
  await service.close();
  process.exit(0);
});
process.send?.({ ready: true, url: service.url });
