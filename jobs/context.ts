import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../config/index.js';
import type { Logger } from '../src/log.js';
import type { Counters } from '../src/metrics/counters.js';
import type { PartnerApi } from '../src/partner/client.js';
import type { PartnerAuthGuard } from '../src/queue/partner-auth.js';
import type { OrderRecords } from '../src/records/order-records.js';
import type { OrderTimeline } from '../src/records/order-timeline.js';
import type { ShipmentTracking } from '../src/records/shipment-tracking.js';
import type { StoreClient } from '../src/store/types.js';

/** The settings jobs read; the service passes its whole configuration. */
export type JobSettings = Pick<
  Config,
  'shipment' | 'eligibility' | 'createJob' | 'interruptedJobs' | 'intake' | 'records' | 'sync'
>;

/** The shared parts every job, enqueue rule and intake path works with (see src/compose/parts.ts). */
export interface QueueContext {
  readonly prefix: string;
  /** The connection the queues, records and counters use. */
  readonly redis: Redis;
  readonly settings: JobSettings;
  readonly records: OrderRecords;
  /** What the status sync knows of each shipment, and what Shopify has been given. */
  readonly tracking: ShipmentTracking;
  /** What happened to each order that neither BullMQ nor the records keep (connector status). */
  readonly timeline: OrderTimeline;
  readonly counters: Counters;
  readonly authGuard: PartnerAuthGuard;
  readonly logger: Logger;
  /** The queue of a job in the catalog. */
  queueOf(job: { readonly queue: string }): Queue;
}

/** What a processor may use: the shared parts and the two outside APIs. */
export interface JobContext extends QueueContext {
  readonly store: StoreClient;
  readonly partner: PartnerApi;
  /** This machine's clock unless a test drives it (a waiting order's next look). */
  readonly clock?: () => Date;
}
