export type { FakeStore, WebhookChoice } from './fake-store.js';
export { FIXTURE_ORDERS, fixtureOrders } from './fixtures/index.js';
export type { FakeGraphqlRequest } from './graphql-route.js';
export {
  DEFAULT_ACCESS_SCOPES,
  DEFAULT_LOCATION,
  type FakeFulfillment,
  type FakeFulfillmentOrder,
  type FakeLocation,
  type FakeMetafieldDefinition,
  type FakeOrder,
  type FakeOrderChange,
  type FakeOrderInput,
  type FakeStaffFulfil,
  type FakeWebhookSubscription,
  FULFILLMENT_SERVICE_LOCATION,
  SECOND_MERCHANT_LOCATION,
} from './model.js';
export { FAKE_ADMIN_SDL, fakeAdminSchema } from './schema.js';
export { type FakeStoreOptions, startFakeStore } from './server.js';
export type { FakeCustomerNotification, FakeMutation } from './state.js';
export type { DropAnswersOptions, ServerErrorOptions } from './traffic.js';
export {
  deliverWebhook,
  orderWebhookPayload,
  signWebhook,
  type WebhookDelivery,
  webhookHeaders,
} from './webhooks.js';
