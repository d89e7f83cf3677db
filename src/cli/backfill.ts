import type { Command } from 'commander';
import { backfillOrders } from '../compose/backfill.js';
import { buildStoreClient } from '../compose/clients.js';
import { buildSharedParts } from '../compose/parts.js';
import { createLogger } from '../log.js';
import { parseDay, parseUntil } from './dates.js';
import { configOrExit, environmentOrExit, redisOrExit } from './exit.js';

export function registerBackfillCommand(program: Command): void {
  program
    .command('backfill')
    .description('queue every eligible order updated since a date that has no shipment yet')
    .requiredOption('--since <date>', 'first day, YYYY-MM-DD (UTC) or an ISO timestamp', parseDay)
    .option(
      '--until <date>',
      'last creation day to include, YYYY-MM-DD (UTC), or an ISO timestamp',
      parseUntil,
    )
    .action(async (opts: { since: Date; until?: Date }) => {
      const config = configOrExit();
      if (!config) return;
      const logger = createLogger({ level: config.logLevel });
      const redis = await redisOrExit(config.redis.url);
      if (!redis) return;
      if (!(await environmentOrExit(redis, config))) {
        await redis.quit();
        return;
      }
      const parts = buildSharedParts({
        redis,
        prefix: config.redis.queuePrefix,
        settings: config,
        logger,
      });
      try {
        const summary = await backfillOrders(
          parts,
          buildStoreClient(config.shopify, logger),
          opts.since,
          opts.until,
        );
        console.log(
          `Backfill done: ${summary.seen} orders seen, ${summary.queued} queued, ${summary.skipped} not eligible, ${summary.flaggedCancelled} flagged as cancelled after registration.`,
        );
      } finally {
        await parts.close();
        await redis.quit();
      }
    });
}
