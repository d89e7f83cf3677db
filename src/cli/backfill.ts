import type { Command } from 'commander';
import { backfillOrders, describeBackfill } from '../compose/backfill.js';
import { buildStoreClient } from '../compose/clients.js';
import { StoreError } from '../store/errors.js';
import { recordCliAction } from './audit.js';
import { parseDay, parseUntil } from './dates.js';
import { EXIT, environmentOrExit, exitOn } from './exit.js';
import { withSharedParts } from './with-parts.js';

// Orders are queued page by page: a failed read leaves the pages before it queued.
const UNREADABLE =
  'Could not read Shopify (the orders queued before stay queued; run the same backfill again to go on)';

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
      await withSharedParts(
        async (parts, config, logger) => {
          if (!(await environmentOrExit(parts.redis, config))) return;
          const summary = await backfillOrders(
            parts,
            buildStoreClient(config.shopify, logger),
            opts.since,
            opts.until,
          ).catch(exitOn([StoreError], EXIT.unavailable, UNREADABLE));
          if (!summary) return;
          console.log(`Backfill done: ${describeBackfill(summary)}`);
          await recordCliAction(parts.redis, parts.prefix, {
            action: 'backfill',
            jobIds: [],
            orderIds: [],
            count: summary.queued,
            detail: `orders since ${opts.since.toISOString()}${opts.until ? ` until ${opts.until.toISOString()}` : ''}`,
          });
        },
        { configuredLogLevel: true },
      );
    });
}
