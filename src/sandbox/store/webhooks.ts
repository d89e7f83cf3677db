import { createHmac, randomUUID } from 'node:crypto';
import type { FakeOrder } from './model.js';

/** Shopify's webhook signature: base64 HMAC-SHA256 of the raw body with the webhook secret. */
export function signWebhook(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('base64');
}

export interface WebhookDelivery {
  url: string;
  topic: string;
  webhookId: string;
  eventId: string;
  /** HTTP status of the receiver's answer, or null when it could not be reached. */
  status: number | null;
  error?: string;
}

/** The headers Shopify sends with a webhook, signed over `body`. */
export function webhookHeaders(options: {
  topic: string;
  shop: string;
  secret: string;
  apiVersion: string;
  body: string;
  webhookId?: string;
  eventId?: string;
  triggeredAt?: string;
}): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'X-Shopify-Topic': options.topic,
    'X-Shopify-Hmac-Sha256': signWebhook(options.secret, options.body),
    'X-Shopify-Shop-Domain': options.shop,
    'X-Shopify-Webhook-Id': options.webhookId ?? randomUUID(),
    'X-Shopify-Event-Id': options.eventId ?? randomUUID(),
    'X-Shopify-API-Version': options.apiVersion,
    'X-Shopify-Triggered-At': options.triggeredAt ?? new Date().toISOString(),
  };
}

/** POSTs a signed webhook like Shopify does; never throws, the outcome is in the result. */
export async function deliverWebhook(options: {
  url: string;
  topic: string;
  shop: string;
  secret: string;
  apiVersion: string;
  payload: unknown;
}): Promise<WebhookDelivery> {
  const body = JSON.stringify(options.payload);
  const headers = webhookHeaders({ ...options, body });
  const delivery = {
    url: options.url,
    topic: options.topic,
    webhookId: headers['X-Shopify-Webhook-Id']!,
    eventId: headers['X-Shopify-Event-Id']!,
  };
  try {
    const response = await fetch(options.url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(5_000),
    });
    await response.body?.cancel();
    return { ...delivery, status: response.status };
  } catch (error) {
    return { ...delivery, status: null, error: (error as Error).message };
  }
}

/** The order as a REST-shaped webhook body (what orders/create and friends carry). */
export function orderWebhookPayload(order: FakeOrder) {
  const address = order.shippingAddress;
  const fulfilled = order.fulfillmentStatus === 'FULFILLED';
  const partly = order.fulfillmentStatus === 'PARTIALLY_FULFILLED';
  const fulfilledUnits = unitsFulfilled(order);
  return {
    id: Number(order.id),
    admin_graphql_api_id: `gid://shopify/Order/${order.id}`,
    name: order.name,
    order_number: Number(order.name.replace(/\D/g, '')) || null,
    email: order.email,
    phone: order.phone,
    created_at: order.createdAt,
    updated_at: order.updatedAt,
    cancelled_at: order.cancelledAt,
    financial_status: order.financialStatus.toLowerCase(),
    fulfillment_status: fulfilled ? 'fulfilled' : partly ? 'partial' : null,
    test: order.test,
    tags: order.tags.join(', '),
    note: order.note,
    currency: 'DKK',
    shipping_address: address && {
      name: address.name,
      company: address.company,
      phone: address.phone,
      address1: address.address1,
      address2: address.address2,
      city: address.city,
      zip: address.zip,
      country_code: address.countryCode,
    },
    line_items: order.lineItems.map((item) => {
      const done = fulfilledUnits.get(item.id) ?? 0;
      return {
        id: Number(item.id),
        admin_graphql_api_id: `gid://shopify/LineItem/${item.id}`,
        title: item.title,
        quantity: item.quantity,
        current_quantity: item.currentQuantity,
        requires_shipping: item.requiresShipping,
        product_type: item.productType,
        sku: item.sku,
        grams: item.weight ? Math.round(toGrams(item.weight)) : 0,
        // Shopify: quantity - max(refunded, fulfilled) - pending and open fulfilment requests.
        fulfillable_quantity: Math.max(0, item.currentQuantity - done),
        fulfillment_status:
          done === 0 ? null : done >= item.currentQuantity ? 'fulfilled' : 'partial',
      };
    }),
  };
}

/** Units of each line item (by id) on the order's fulfillments that stand, staff's or an app's. */
function unitsFulfilled(order: FakeOrder): Map<string, number> {
  const lineOf = new Map(
    order.fulfillmentOrders.flatMap((fo) => fo.lineItems.map((line) => [line.id, line.lineItemId])),
  );
  const units = new Map<string, number>();
  for (const fulfillment of order.fulfillments) {
    if (fulfillment.status !== 'SUCCESS') continue;
    for (const line of fulfillment.lineItems) {
      const itemId = lineOf.get(line.fulfillmentOrderLineItemId);
      if (itemId) units.set(itemId, (units.get(itemId) ?? 0) + line.quantity);
    }
  }
  return units;
}

function toGrams(weight: { value: number; unit: string }): number {
  const factor = { GRAMS: 1, KILOGRAMS: 1000, OUNCES: 28.349523125, POUNDS: 453.59237 }[
    weight.unit
  ];
  return weight.value * (factor ?? 1);
}
