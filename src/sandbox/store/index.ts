export { FIXTURE_ORDERS, fixtureOrders } from './fixtures/index.js';
export type { FakeOrder, FakeOrderChange, FakeOrderInput } from './model.js';
export { FAKE_ADMIN_SDL, fakeAdminSchema } from './schema.js';
export {
  type FakeGraphqlRequest,
  type FakeStore,
  type FakeStoreOptions,
  startFakeStore,
  type WebhookChoice,
} from './server.js';
export type { FakeMutation } from './state.js';
export {
  deliverWebhook,
  orderWebhookPayload,
  signWebhook,
  type WebhookDelivery,
  webhookHeaders,
} from './webhooks.js';
