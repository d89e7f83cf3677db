import type { Command } from 'commander';
import { ConfigError, loadConfig } from '../../config/index.js';
import { reconcileOrders } from '../../jobs/reconcile-orders/reconcile.js';
import { createLogger } from '../log.js';
import { Counters } from '../metrics/counters.js';
import { Enqueuer } from '../queue/enqueue.js';
import { allQueues, createQueues } from '../queue/queues.js';
import { connectedRedis } from '../queue/redis.js';
import { OrderRecords } from '../records/order-records.js';
import { createStoreClient } from '../store/admin-client.js';

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
      let config: ReturnType<typeof loadConfig>;
      try {
        config = loadConfig();
      } catch (error) {
        if (error instanceof ConfigError) {
          console.error(error.message);
          process.exitCode = 78;
          return;
        }
        throw error;
      }
      const logger = createLogger({ level: config.logLevel });
      let redis: Awaited<ReturnType<typeof connectedRedis>>;
      try {
        redis = await connectedRedis(config.redis.url);
      } catch (error) {
        console.error(error instanceof Error ? error.message : String(error));
        process.exitCode = 69; // EX_UNAVAILABLE
        return;
      }
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
