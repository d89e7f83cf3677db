import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../config/index.js';
import type { Logger } from '../src/log.js';
import type { Counters } from '../src/metrics/counters.js';
import type { PartnerAuthGuard } from '../src/partner/auth-guard.js';
import type { PartnerApi } from '../src/partner/client.js';
import type { OrderRecords } from '../src/records/order-records.js';
import type { OrderTimeline } from '../src/records/order-timeline.js';
import type { ShipmentTracking } from '../src/records/shipment-tracking.js';
import type { StoreClient } from '../src/store/types.js';

export type JobSettings = Pick<
  Config,
  'shipment' | 'eligibility' | 'createJob' | 'interruptedJobs' | 'intake' | 'records' | 'sync'
>;

/** Built in src/compose/parts.ts. */
export interface QueueContext {
  readonly prefix: string;
  readonly redis: Redis;
  readonly settings: JobSettings;
  readonly records: OrderRecords;
  /** What the status sync knows of each shipment and what Shopify has been given. */
  readonly tracking: ShipmentTracking;
  /** What happened to each order that neither BullMQ nor the records keep. */
  readonly timeline: OrderTimeline;
  readonly counters: Counters;
  readonly authGuard: PartnerAuthGuard;
  readonly logger: Logger;
  queueOf(job: { readonly queue: string }): Queue;
}

export interface JobContext extends QueueContext {
  readonly store: StoreClient;
  readonly partner: PartnerApi;
  /** Tests drive it (a waiting order's next look). */
  readonly clock?: () => Date;
}
