export type { FakeStore, WebhookChoice } from './fake-store.js';
export { FIXTURE_ORDERS, fixtureOrders } from './fixtures/index.js';
export type { FakeGraphqlRequest } from './graphql-route.js';
export type { FakeOrder, FakeOrderChange, FakeOrderInput } from './model.js';
export { FAKE_ADMIN_SDL, fakeAdminSchema } from './schema.js';
export { type FakeStoreOptions, startFakeStore } from './server.js';
export type { FakeMutation } from './state.js';
export {
  deliverWebhook,
  orderWebhookPayload,
  signWebhook,
  type WebhookDelivery,
  webhookHeaders,
} from './webhooks.js';
