import type { Command } from 'commander';
import { reconcileOrders } from '../../jobs/reconcile-orders/reconcile.js';
import { createLogger } from '../log.js';
import { Counters } from '../metrics/counters.js';
import { Enqueuer } from '../queue/enqueue.js';
import { allQueues, createQueues } from '../queue/queues.js';
import { OrderRecords } from '../records/order-records.js';
import { createStoreClient } from '../store/admin-client.js';
import { configOrExit, redisOrExit } from './exit.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 3600_000;

function parseDay(value: string): Date {
  const date = new Date(DAY.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) throw new Error(`Not a date: ${value} (use YYYY-MM-DD)`);
  return date;
}

/** A day includes all of that day; a timestamp is the last moment itself. */
function parseUntil(value: string): Date {
  const date = parseDay(value);
  return DAY.test(value) ? new Date(date.getTime() + DAY_MS - 1) : date;
}

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
      const prefix = config.redis.queuePrefix;
      const queues = createQueues(redis, prefix, config.createJob, logger);
      const records = new OrderRecords(redis, prefix);
      const enqueuer = new Enqueuer(queues, records, logger);
      try {
        const summary = await reconcileOrders(
          opts.since,
          'backfill',
          {
            store: createStoreClient({ ...config.shopify, logger }),
            records,
            enqueuer,
            counters: new Counters(redis, prefix),
            storeUpdate: enqueuer.storeUpdate.bind(enqueuer),
            eligibility: config.eligibility,
            logger,
          },
          opts.until,
        );
        console.log(
          `Backfill done: ${summary.seen} orders seen, ${summary.queued} queued, ${summary.skipped} not eligible, ${summary.flaggedCancelled} flagged as cancelled after registration.`,
        );
      } finally {
        await Promise.all(allQueues(queues).map((q) => q.close()));
        await redis.quit();
      }
    });
}
