import { z } from 'zod';
import { pageInfo, userErrors } from '../transport/answers.js';

/** The `data` of each document in documents.ts, as the setup reads it. */

const page = <T extends z.ZodType>(node: T) => z.object({ nodes: z.array(node), pageInfo });

export const grantedScopesData = z.object({
  currentAppInstallation: z.object({ accessScopes: z.array(z.object({ handle: z.string() })) }),
});

export const shopIdentityData = z.object({
  shop: z.object({ name: z.string(), myshopifyDomain: z.string() }),
});

export const listLocationsData = z.object({
  locations: page(
    z.object({ id: z.string(), name: z.string(), isFulfillmentService: z.boolean() }),
  ),
});

export const listWebhookSubscriptionsData = z.object({
  webhookSubscriptions: page(z.object({ id: z.string(), topic: z.string(), uri: z.string() })),
});

const webhookPayload = z
  .object({ webhookSubscription: z.object({ id: z.string() }).nullable(), userErrors })
  .nullable();

export const createWebhookSubscriptionData = z.object({
  webhookSubscriptionCreate: webhookPayload,
});

export const updateWebhookSubscriptionData = z.object({
  webhookSubscriptionUpdate: webhookPayload,
});

export const listMetafieldDefinitionsData = z.object({
  metafieldDefinitions: page(
    z.object({
      id: z.string(),
      key: z.string(),
      name: z.string(),
      type: z.object({ name: z.string() }),
    }),
  ),
});

export const createMetafieldDefinitionData = z.object({
  metafieldDefinitionCreate: z
    .object({ createdDefinition: z.object({ id: z.string() }).nullable(), userErrors })
    .nullable(),
});
