/**
 * The documents `connector setup` sends (API 2026-10). Every export is one complete document,
 * listed in ../documents.ts for the schema and cost tests.
 */

/** The app installation and its scopes: 2. */
export const GET_GRANTED_SCOPES = /* GraphQL */ `
  query GetGrantedScopes {
    currentAppInstallation {
      accessScopes {
        handle
      }
    }
  }
`;

/** 1: the cheapest query that still needs a working token. */
export const GET_SHOP_IDENTITY = /* GraphQL */ `
  query GetShopIdentity {
    shop {
      name
      myshopifyDomain
    }
  }
`;

/**
 * The store's active locations, 50 a page: 2 + 50 = 52. Which of them are the merchant's own
 * tells whether COLLECT_FROM_LOCATIONS needs setting.
 */
export const LIST_LOCATIONS = /* GraphQL */ `
  query ListLocations($after: String) {
    locations(first: 50, after: $after) {
      nodes {
        id
        name
        isFulfillmentService
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

/**
 * 50 subscriptions a page: 2 + 50 = 52. `uri` replaces the deprecated `callbackUrl` (and
 * `endpoint`) and also holds Pub/Sub and EventBridge addresses.
 */
export const LIST_WEBHOOK_SUBSCRIPTIONS = /* GraphQL */ `
  query ListWebhookSubscriptions($topics: [WebhookSubscriptionTopic!], $after: String) {
    webhookSubscriptions(first: 50, after: $after, topics: $topics) {
      nodes {
        id
        topic
        uri
      }
      pageInfo {
        hasNextPage
        endCursor
      }
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
      userErrors {
        field
        message
      }
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
      userErrors {
        field
        message
      }
    }
  }
`;

/**
 * Order metafield definitions of one namespace, 50 a page: 2 + 50 × (1 + its type) = 102.
 * The root query: Order.metafieldDefinitions is deprecated.
 */
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
      pageInfo {
        hasNextPage
        endCursor
      }
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
