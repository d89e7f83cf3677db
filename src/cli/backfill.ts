import type { Command } from 'commander';
import { backfillOrders, describeBackfill, emptyReconcileSummary } from '../compose/backfill.js';
import { buildStoreClient } from '../compose/clients.js';
import { StoreError } from '../store/errors.js';
import { recordCliAction } from './audit.js';
import { parseDay, parseUntil } from './dates.js';
import { EXIT, environmentOrExit, exitOn } from './exit.js';
import { withSharedParts } from './with-parts.js';

const UNREADABLE =
  'Could not read Shopify (what was queued stays queued; the same backfill run again queues the rest)';

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
          // Filled page by page: a read that fails leaves what came before it queued and counted.
          const summary = emptyReconcileSummary();
          const done = await backfillOrders(
            parts,
            buildStoreClient(config.shopify, logger),
            opts.since,
            opts.until,
            summary,
          ).then(() => true, exitOn([StoreError], EXIT.unavailable, UNREADABLE));
          console.log(`Backfill ${done ? 'done' : 'stopped'}: ${describeBackfill(summary)}`);
          await recordCliAction(parts.redis, parts.prefix, {
            action: 'backfill',
            jobIds: [],
            orderIds: [],
            count: summary.queued,
            detail: `orders since ${opts.since.toISOString()}${opts.until ? ` until ${opts.until.toISOString()}` : ''}${done ? '' : ', stopped: Shopify could not be read'}`,
          });
        },
        { configuredLogLevel: true },
      );
    });
}
