export { type AdminClientOptions, createStoreClient, ShopifyAdminClient } from './admin-client.js';
export * from './errors.js';
export type { ShopifyAuth } from './shopify.js';
export type * from './types.js';
export {
  createWebhookVerifier,
  type VerifyWebhook,
  type WebhookHeaders,
  type WebhookVerification,
} from './webhooks.js';
