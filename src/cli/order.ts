import { Queue } from 'bullmq';
import type { Command } from 'commander';
import { CREATE_SHIPMENT_QUEUE, orderJobId } from '../compose/parts.js';
import { parseOrderId } from '../domain/order.js';
import { OrderRecords } from '../records/order-records.js';
import { recordCliAction } from './audit.js';
import { EXIT, environmentOrExit, withRedis } from './exit.js';
import { registrationLines, stateWord } from './status-format.js';
import { withSharedParts } from './with-parts.js';

export async function reportOrder(
  orderId: string,
  parts: { records: Pick<OrderRecords, 'get'>; queues: { createShipment: Queue } },
) {
  const jobId = orderJobId(orderId);
  const [record, job] = await Promise.all([
    parts.records.get(orderId),
    parts.queues.createShipment.getJob(jobId),
  ]);
  return {
    orderId,
    record,
    job: job
      ? {
          id: jobId,
          state: await job.getState(),
          attemptsMade: job.attemptsMade,
          ...(job.failedReason ? { failedReason: job.failedReason } : {}),
        }
      : null,
  };
}

type OrderReport = Awaited<ReturnType<typeof reportOrder>>;

export function formatOrderReport({ orderId, record: r, job: j }: OrderReport): string {
  return [
    `Order ${orderId}`,
    ...(r
      ? [
          `  State: ${stateWord(r.state)} (since ${r.updatedAt})`,
          ...registrationLines(r, 'Provider status', true),
        ]
      : ['  No record: the connector has not seen this order yet.']),
    j
      ? `  Job ${j.id}: ${j.state}, ${j.attemptsMade} attempt(s) made`
      : '  No create-shipment job is kept for it.',
  ].join('\n');
}

export function registerOrderCommand(program: Command): void {
  program
    .command('order')
    .description('show what the connector knows of an order, and queue it again with --replay')
    .argument('<id>', 'the Shopify order id (numeric or gid://shopify/Order/…)')
    .option('--replay', 'queue the order for registration again (a failed job is retried)')
    .option('--json', 'print JSON')
    .action(async (rawId: string, opts: { replay?: boolean; json?: boolean }) => {
      const orderId = parseOrderId(rawId);
      if (!orderId) {
        console.error(`Not a Shopify order id: ${rawId}`);
        process.exitCode = EXIT.usage;
        return;
      }
      const print = (report: OrderReport) =>
        console.log(opts.json ? JSON.stringify(report, null, 2) : formatOrderReport(report));
      if (!opts.replay) {
        await withRedis('Reading the records needs', async (redis, prefix) => {
          const createShipment = new Queue(CREATE_SHIPMENT_QUEUE, { connection: redis, prefix });
          try {
            const records = OrderRecords.reader(redis, prefix);
            print(await reportOrder(orderId, { records, queues: { createShipment } }));
          } finally {
            await createShipment.close();
          }
        });
        return;
      }
      await withSharedParts(async (parts, config) => {
        if (await environmentOrExit(parts.redis, config)) {
          const result = await parts.enqueueOrder(orderId, 'replay');
          if (!opts.json) console.log(`Replay: ${result.replaceAll('_', ' ')}.`);
          const queued = result === 'queued' || result === 'requeued';
          await recordCliAction(parts.redis, parts.prefix, {
            action: 'order --replay',
            queue: 'create-shipment',
            jobIds: queued ? [`order-${orderId}`] : [],
            orderIds: [orderId],
            count: queued ? 1 : 0,
            detail: result.replaceAll('_', ' '),
          });
        }
        print(await reportOrder(orderId, parts));
      });
    });
}
