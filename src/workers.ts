import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../config/index.js';
import { createShipmentProcessor } from '../jobs/create-shipment/processor.js';
import { updateStoreProcessor } from '../jobs/update-store/processor.js';
import type { Logger } from './log.js';
import type { Counters } from './metrics/counters.js';
import type { PartnerApi } from './partner/client.js';
import type { Enqueuer } from './queue/enqueue.js';
import { QUEUES } from './queue/names.js';
import type { PartnerAuthGuard } from './queue/partner-auth.js';
import { type Queues, workerOptions } from './queue/queues.js';
import type { OrderRecords } from './records/order-records.js';
import type { StoreClient } from './store/types.js';

export interface WorkerDeps {
  config: Pick<Config, 'shipment' | 'eligibility' | 'createJob'>;
  /** A connection for the workers' blocking commands; BullMQ duplicates it as needed. */
  connection: Redis;
  prefix: string;
  queues: Queues;
  store: StoreClient;
  partner: PartnerApi;
  records: OrderRecords;
  counters: Counters;
  enqueuer: Enqueuer;
  authGuard: PartnerAuthGuard;
  logger: Logger;
  concurrency?: { createShipment?: number; updateStore?: number };
}

/** Starts the workers of the order-to-shipment path. */
export function startShipmentWorkers(deps: WorkerDeps): Worker[] {
  const options = (concurrency: number) =>
    workerOptions(deps.connection, deps.prefix, deps.config.createJob, concurrency);
  const logger = deps.logger;

  const createShipment = new Worker(
    QUEUES.createShipment,
    createShipmentProcessor({
      store: deps.store,
      partner: deps.partner,
      records: deps.records,
      counters: deps.counters,
      settings: { shipment: deps.config.shipment, eligibility: deps.config.eligibility },
      storeUpdate: (orderId, kind) => deps.enqueuer.storeUpdate(orderId, kind),
      logger: logger.child({ module: 'create-shipment' }),
      queue: deps.queues.createShipment,
      authGuard: deps.authGuard,
    }),
    options(deps.concurrency?.createShipment ?? 4),
  );

  const updateStore = new Worker(
    QUEUES.updateStore,
    updateStoreProcessor({
      store: deps.store,
      records: deps.records,
      logger: logger.child({ module: 'update-store' }),
    }),
    options(deps.concurrency?.updateStore ?? 2),
  );

  for (const worker of [createShipment, updateStore]) {
    // Without a listener, an 'error' event (Redis gone, say) would crash the process.
    worker.on('error', (err) => logger.error({ err, queue: worker.name }, 'worker error'));
    worker.on('failed', (job, err) =>
      logger.warn(
        {
          queue: worker.name,
          jobId: job?.id,
          attemptsMade: job?.attemptsMade,
          reason: err.message,
        },
        'job failed',
      ),
    );
  }
  return [createShipment, updateStore];
}
