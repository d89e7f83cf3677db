import type { Command } from 'commander';
import { ConfigError, loadConfig } from '../../config/index.js';
import { createLogger, stdoutLogFormat } from '../log.js';
import { EvictionPolicyError } from '../queue/redis-durability.js';
import { PartnerEnvironmentMismatchError } from '../records/partner-environment.js';
import { type RunningService, startService } from '../service.js';
import { EXIT, exitOn, settingsOrExit } from './exit.js';
import { whenStartedFromGone } from './parent-watch.js';

export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description('run the connector: webhook intake, queue workers and reconciliation')
    .option('--no-http', 'run workers only (for extra worker processes)')
    .option('--no-workers', 'run the webhook intake only')
    .option(
      '--one-thread',
      'run the workers in the main thread too: about 20 MB less memory at rest, slower webhook answers while the workers are busy',
    )
    .action(async (opts: { http: boolean; workers: boolean; oneThread?: boolean }) => {
      const config = settingsOrExit(() => loadConfig());
      if (!config) return;
      const logger = createLogger({ level: config.logLevel });
      let service: RunningService | undefined;
      let stopping = false;
      let fatal: string | undefined;
      const stop = async (reason: string) => {
        if (stopping || !service) return;
        stopping = true;
        logger.info({ reason }, 'stopping: finishing active jobs');
        await service.close();
        logger.info('stopped');
      };
      service = await startService(config, {
        logger,
        http: opts.http,
        workers: opts.workers,
        workersThread:
          opts.http && opts.workers && !opts.oneThread
            ? { log: { format: stdoutLogFormat(), colour: Boolean(process.stdout.isTTY) } }
            : undefined,
        onFatal: (reason) => {
          fatal = reason;
          process.exitCode = 1;
          void stop(reason);
        },
      }).catch(
        exitOn([PartnerEnvironmentMismatchError, EvictionPolicyError, ConfigError], EXIT.config),
      );
      if (!service) return;
      // The thread may have ended before `service` was there to stop.
      if (fatal) return void stop(fatal);
      process.once('SIGINT', () => void stop('SIGINT'));
      process.once('SIGTERM', () => void stop('SIGTERM'));
      // Under npm a signal to npm need not reach this process: stop when npm goes.
      if (process.env.npm_lifecycle_event) {
        void whenStartedFromGone().then((reason) => stop(reason));
      }
    });
}
