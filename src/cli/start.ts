import type { Command } from 'commander';
import { createLogger } from '../log.js';
import { startService } from '../service.js';
import { configOrExit } from './exit.js';

export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description('run the connector: webhook intake, queue workers and reconciliation')
    .option('--no-http', 'run workers only (for extra worker processes)')
    .option('--no-workers', 'run the webhook intake only')
    .action(async (opts: { http: boolean; workers: boolean }) => {
      const config = configOrExit();
      if (!config) return;
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
