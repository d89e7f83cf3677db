/**
 * The WebhookSubscriptionTopic values the fake knows (a subset of Shopify's), and how each is
 * written in the X-Shopify-Topic header: ORDERS_CREATE is orders/create.
 */
export const WEBHOOK_TOPICS = [
  'APP_SCOPES_UPDATE',
  'APP_UNINSTALLED',
  'FULFILLMENTS_CREATE',
  'FULFILLMENTS_UPDATE',
  'FULFILLMENT_EVENTS_CREATE',
  'FULFILLMENT_HOLDS_RELEASED',
  'FULFILLMENT_ORDERS_HOLD_RELEASED',
  'FULFILLMENT_ORDERS_PLACED_ON_HOLD',
  'FULFILLMENT_ORDERS_PROGRESS_REPORTED',
  'ORDERS_CANCELLED',
  'ORDERS_CREATE',
  'ORDERS_DELETE',
  'ORDERS_FULFILLED',
  'ORDERS_PAID',
  'ORDERS_PARTIALLY_FULFILLED',
  'ORDERS_UPDATED',
] as const;

/** ORDERS_CREATE → orders/create, FULFILLMENT_ORDERS_HOLD_RELEASED → fulfillment_orders/hold_released. */
export function headerTopic(topic: string): string {
  const lower = topic.toLowerCase();
  for (const resource of ['fulfillment_orders', 'fulfillment_events', 'fulfillment_holds']) {
    if (lower.startsWith(`${resource}_`)) return `${resource}/${lower.slice(resource.length + 1)}`;
  }
  const [resource, ...rest] = lower.split('_');
  return `${resource}/${rest.join('_')}`;
}
