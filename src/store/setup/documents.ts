/** Each export is a complete document, listed in ../documents.ts for the schema and cost tests. */

import { PAGE_INFO, USER_ERRORS } from '../selections.js';

export const GET_GRANTED_SCOPES = /* GraphQL */ `
  query GetGrantedScopes {
    currentAppInstallation {
      accessScopes {
        handle
      }
    }
  }
`;

/** The cheapest query that still needs a working token. */
export const GET_SHOP_IDENTITY = /* GraphQL */ `
  query GetShopIdentity {
    shop {
      name
      myshopifyDomain
    }
  }
`;

/** Which are the merchant's own tells whether COLLECT_FROM_LOCATIONS needs setting. */
export const LIST_LOCATIONS = /* GraphQL */ `
  query ListLocations($after: String) {
    locations(first: 50, after: $after) {
      nodes {
        id
        name
        isFulfillmentService
      }
      ${PAGE_INFO}
    }
  }
`;

/** `uri` replaces the deprecated `callbackUrl`; it also holds Pub/Sub and EventBridge addresses. */
export const LIST_WEBHOOK_SUBSCRIPTIONS = /* GraphQL */ `
  query ListWebhookSubscriptions($topics: [WebhookSubscriptionTopic!], $after: String) {
    webhookSubscriptions(first: 50, after: $after, topics: $topics) {
      nodes {
        id
        topic
        uri
      }
      ${PAGE_INFO}
    }
  }
`;

export const CREATE_WEBHOOK_SUBSCRIPTION = /* GraphQL */ `
  mutation CreateWebhookSubscription(
    $topic: WebhookSubscriptionTopic!
    $webhookSubscription: WebhookSubscriptionInput!
  ) {
    webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) {
      webhookSubscription {
        id
      }
      ${USER_ERRORS}
    }
  }
`;

export const UPDATE_WEBHOOK_SUBSCRIPTION = /* GraphQL */ `
  mutation UpdateWebhookSubscription(
    $id: ID!
    $webhookSubscription: WebhookSubscriptionInput!
  ) {
    webhookSubscriptionUpdate(id: $id, webhookSubscription: $webhookSubscription) {
      webhookSubscription {
        id
      }
      ${USER_ERRORS}
    }
  }
`;

/** The root query, as Order.metafieldDefinitions is deprecated. */
export const LIST_ORDER_METAFIELD_DEFINITIONS = /* GraphQL */ `
  query ListOrderMetafieldDefinitions($namespace: String!, $after: String) {
    metafieldDefinitions(ownerType: ORDER, namespace: $namespace, first: 50, after: $after) {
      nodes {
        id
        key
        name
        type {
          name
        }
      }
      ${PAGE_INFO}
    }
  }
`;

export const CREATE_METAFIELD_DEFINITION = /* GraphQL */ `
  mutation CreateMetafieldDefinition($definition: MetafieldDefinitionInput!) {
    metafieldDefinitionCreate(definition: $definition) {
      createdDefinition {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;
