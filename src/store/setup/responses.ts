import { z } from 'zod';
import { connection, payload } from '../transport/answers.js';

/** The `data` of each document in documents.ts, as the setup reads it. */

export const grantedScopesData = z.object({
  currentAppInstallation: z.object({ accessScopes: z.array(z.object({ handle: z.string() })) }),
});

export const shopIdentityData = z.object({
  shop: z.object({ name: z.string(), myshopifyDomain: z.string() }),
});

export const listLocationsData = z.object({
  locations: connection(
    z.object({ id: z.string(), name: z.string(), isFulfillmentService: z.boolean() }),
  ),
});

export const listWebhookSubscriptionsData = z.object({
  webhookSubscriptions: connection(
    z.object({ id: z.string(), topic: z.string(), uri: z.string() }),
  ),
});

const webhookPayload = payload({ webhookSubscription: z.object({ id: z.string() }).nullable() });

export const createWebhookSubscriptionData = z.object({
  webhookSubscriptionCreate: webhookPayload,
});

export const updateWebhookSubscriptionData = z.object({
  webhookSubscriptionUpdate: webhookPayload,
});

export const listMetafieldDefinitionsData = z.object({
  metafieldDefinitions: connection(
    z.object({
      id: z.string(),
      key: z.string(),
      name: z.string(),
      type: z.object({ name: z.string() }),
    }),
  ),
});

export const createMetafieldDefinitionData = z.object({
  metafieldDefinitionCreate: payload({
    createdDefinition: z.object({ id: z.string() }).nullable(),
  }),
});
