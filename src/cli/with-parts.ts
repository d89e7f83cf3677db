import type { Config } from '../../config/index.js';
import { buildSharedParts, type SharedParts } from '../compose/parts.js';
import { createLogger, type Logger } from '../log.js';
import { configOrExit, redisOrExit } from './exit.js';

/**
 * What the admin commands share: the configuration and a ready Redis (or a clear message and the
 * exit code), the shared parts of the configured prefix for `work`, and everything closed after.
 */
export async function withSharedParts(
  work: (parts: SharedParts, config: Config, logger: Logger) => Promise<void>,
  /** Log at LOG_LEVEL (a command that does the service's work); otherwise warnings only. */
  options: { configuredLogLevel?: boolean } = {},
): Promise<void> {
  const config = configOrExit();
  if (!config) return;
  const redis = await redisOrExit(config.redis.url);
  if (!redis) return;
  const logger = createLogger({ level: options.configuredLogLevel ? config.logLevel : 'warn' });
  const parts = buildSharedParts({
    redis,
    prefix: config.redis.queuePrefix,
    settings: config,
    logger,
  });
  try {
    await work(parts, config, logger);
  } finally {
    await parts.close();
    await redis.quit();
  }
}
