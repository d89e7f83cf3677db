/**
 * One connector process for the reliability suite: `startService` from the environment, as
 * `connector start` runs it, with a short job lock so that a job whose worker is killed runs
 * again within seconds. Logs go to stdout (the parent keeps them); 'ready' goes to the parent.
 */
import { loadConfig } from '../../config/index.js';
import { createLogger } from '../../src/log.js';
import { startService } from '../../src/service.js';

const config = loadConfig(process.env);
const logger = createLogger({ level: config.logLevel, format: 'json' }, process.stdout);
const lockMs = Number(process.env.RELIABILITY_LOCK_MS ?? 4_000);
const service = await startService(config, {
  logger,
  http: process.env.RELIABILITY_HTTP === 'true',
  shutdownGraceMs: 2_000,
  jobLock: { durationMs: lockMs, stalledIntervalMs: Math.round(lockMs / 2) },
  // Puts the schedulers back soon after Redis lost its data (production: every minute).
  scheduleRefreshMs: Number(process.env.RELIABILITY_SCHEDULE_REFRESH_MS ?? 60_000),
});
process.once('SIGTERM', async () => {
  await service.close();
  process.exit(0);
});
process.send?.({ ready: true, url: service.url });
