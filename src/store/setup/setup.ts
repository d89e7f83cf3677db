import type { z } from 'zod';
import type { StoreTransport } from '../transport/admin-transport.js';
import { nextCursor, required } from '../transport/answers.js';
import { throwOnUserErrors } from '../transport/graphql-request.js';
import * as D from './documents.js';
import * as R from './responses.js';
import type { StoreSetup } from './types.js';

export function createStoreSetup(transport: StoreTransport): StoreSetup {
  return {
    async grantedScopes() {
      const data = await transport.send(
        'GetGrantedScopes',
        D.GET_GRANTED_SCOPES,
        R.grantedScopesData,
        {},
      );
      return data.currentAppInstallation.accessScopes.map((scope) => scope.handle);
    },

    async shopIdentity() {
      const data = await transport.send(
        'GetShopIdentity',
        D.GET_SHOP_IDENTITY,
        R.shopIdentityData,
        {},
      );
      return data.shop;
    },

    async merchantLocations() {
      const operation = 'ListLocations';
      const locations: { id: string; name: string }[] = [];
      let after: string | null = null;
      do {
        const data: { locations: z.output<typeof R.listLocationsData>['locations'] } =
          await transport.send(operation, D.LIST_LOCATIONS, R.listLocationsData, { after });
        for (const l of data.locations.nodes) {
          if (!l.isFulfillmentService) locations.push({ id: l.id, name: l.name });
        }
        after = nextCursor(data.locations.pageInfo, operation);
      } while (after);
      return locations;
    },

    async listWebhookSubscriptions(topics) {
      const operation = 'ListWebhookSubscriptions';
      // Shopify reads an empty topic list as "no filter": asking for none means none.
      if (topics.length === 0) return [];
      const subscriptions: { id: string; topic: string; uri: string }[] = [];
      let after: string | null = null;
      do {
        const data: { webhookSubscriptions: R.WebhookSubscriptionsPage } = await transport.send(
          operation,
          D.LIST_WEBHOOK_SUBSCRIPTIONS,
          R.listWebhookSubscriptionsData,
          { topics, after },
        );
        subscriptions.push(...data.webhookSubscriptions.nodes);
        after = nextCursor(data.webhookSubscriptions.pageInfo, operation);
      } while (after);
      return subscriptions;
    },

    async createWebhookSubscription(topic, uri) {
      const operation = 'CreateWebhookSubscription';
      const data = await transport.send(
        operation,
        D.CREATE_WEBHOOK_SUBSCRIPTION,
        R.createWebhookSubscriptionData,
        // JSON is what the webhook route verifies and parses.
        { topic, webhookSubscription: { uri, format: 'JSON' } },
      );
      const payload = required(data.webhookSubscriptionCreate, operation);
      throwOnUserErrors(operation, payload.userErrors);
      return { id: required(payload.webhookSubscription, operation).id };
    },

    async updateWebhookSubscription(id, uri) {
      const operation = 'UpdateWebhookSubscription';
      const data = await transport.send(
        operation,
        D.UPDATE_WEBHOOK_SUBSCRIPTION,
        R.updateWebhookSubscriptionData,
        { id, webhookSubscription: { uri } },
      );
      throwOnUserErrors(operation, required(data.webhookSubscriptionUpdate, operation).userErrors);
    },

    async listOrderMetafieldDefinitions(namespace) {
      const operation = 'ListOrderMetafieldDefinitions';
      const definitions: { id: string; key: string; name: string; type: string }[] = [];
      let after: string | null = null;
      do {
        const data: { metafieldDefinitions: R.MetafieldDefinitionsPage } = await transport.send(
          operation,
          D.LIST_ORDER_METAFIELD_DEFINITIONS,
          R.listMetafieldDefinitionsData,
          { namespace, after },
        );
        for (const node of data.metafieldDefinitions.nodes) {
          definitions.push({ id: node.id, key: node.key, name: node.name, type: node.type.name });
        }
        after = nextCursor(data.metafieldDefinitions.pageInfo, operation);
      } while (after);
      return definitions;
    },

    async createOrderMetafieldDefinition(def) {
      const operation = 'CreateMetafieldDefinition';
      const data = await transport.send(
        operation,
        D.CREATE_METAFIELD_DEFINITION,
        R.createMetafieldDefinitionData,
        {
          definition: {
            ownerType: 'ORDER',
            namespace: def.namespace,
            key: def.key,
            name: def.name,
            type: def.type,
            ...(def.description ? { description: def.description } : {}),
            ...(def.pin ? { pin: true } : {}),
          },
        },
      );
      throwOnUserErrors(operation, required(data.metafieldDefinitionCreate, operation).userErrors);
    },
  };
}
