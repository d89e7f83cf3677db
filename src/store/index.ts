export { type AdminClientOptions, createStoreClient } from './client.js';
export type { StoreCostGate, StorePriority } from './transport/cost-gate.js';
export { withStorePriority } from './transport/priority.js';
export type { QueryCost, StoreRequestOutcome } from './transport/query-cost.js';
export { SharedStoreBucket } from './transport/shared-bucket.js';
