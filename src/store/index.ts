export { type AdminClientOptions, createStoreClient } from './client.js';
export * from './errors.js';
export { createFulfillments } from './fulfillments/fulfillments.js';
export { createOrderMarks } from './order-marks/order-marks.js';
export { createOrderReader } from './orders/order-reader.js';
export {
  missingScopes,
  REQUIRED_SCOPES,
  type RequiredScope,
  SCOPE_PURPOSES,
} from './setup/scopes.js';
export { createStoreSetup } from './setup/setup.js';
export type { ShopifyAuth } from './shopify.js';
export { createAdminTransport, type StoreTransport } from './transport/admin-transport.js';
export type {
  CostTicket,
  GrantedTicket,
  StoreCostGate,
  StorePriority,
} from './transport/cost-gate.js';
export { withStorePriority } from './transport/priority.js';
export type { QueryCost, StoreRequestOutcome } from './transport/query-cost.js';
export {
  type SharedBucketOptions,
  type SharedBucketState,
  SharedStoreBucket,
} from './transport/shared-bucket.js';
export type * from './types.js';
export {
  createWebhookVerifier,
  type VerifyWebhook,
  type WebhookHeaders,
  type WebhookVerification,
} from './webhooks.js';
