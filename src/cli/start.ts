import type { Command } from 'commander';
import { ConfigError, loadConfig } from '../../config/index.js';
import { createLogger } from '../log.js';
import { startService } from '../service.js';

export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description('run the connector: webhook intake, queue workers and reconciliation')
    .option('--no-http', 'run workers only (for extra worker processes)')
    .option('--no-workers', 'run the webhook intake only')
    .action(async (opts: { http: boolean; workers: boolean }) => {
      let config: ReturnType<typeof loadConfig>;
      try {
        config = loadConfig();
      } catch (error) {
        if (error instanceof ConfigError) {
          console.error(error.message);
          process.exitCode = 78; // EX_CONFIG
          return;
        }
        throw error;
      }
      const logger = createLogger({ level: config.logLevel });
      const service = await startService(config, {
        logger,
        http: opts.http,
        workers: opts.workers,
      });
      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, 'stopping: finishing active jobs');
        await service.close();
        logger.info('stopped');
      };
      process.once('SIGINT', () => void stop('SIGINT'));
      process.once('SIGTERM', () => void stop('SIGTERM'));
    });
}
