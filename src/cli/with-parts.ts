import { type Config, loadConfig } from '../../config/index.js';
import { buildSharedParts, type SharedParts } from '../compose/parts.js';
import { createLogger, type Logger } from '../log.js';
import { settingsOrExit, withRedisAt } from './exit.js';

/** Apart from exit.ts so that commands without queues do not load BullMQ and the jobs. */
export async function withSharedParts(
  work: (parts: SharedParts, config: Config, logger: Logger) => Promise<void>,
  /** For a command that does the service's work; otherwise warnings only. */
  options: { configuredLogLevel?: boolean } = {},
): Promise<void> {
  const config = settingsOrExit(() => loadConfig());
  if (!config) return;
  await withRedisAt(config.redis.url, async (redis) => {
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
    }
  });
}
