import type { z } from 'zod';
import type { StoreTransport } from '../transport/admin-transport.js';
import { nextCursor, type pageInfo, required } from '../transport/answers.js';
import { throwOnUserErrors } from '../transport/graphql-request.js';
import * as D from './documents.js';
import * as R from './responses.js';
import type { StoreSetup } from './types.js';

export function createStoreSetup({ send }: StoreTransport): StoreSetup {
  /** Every node of a paged list, following its cursor to the end. */
  async function allNodes<S extends z.ZodType, N>(
    operation: string,
    document: string,
    schema: S,
    variables: Record<string, unknown>,
    page: (data: z.output<S>) => { nodes: N[]; pageInfo: z.output<typeof pageInfo> },
  ): Promise<N[]> {
    const nodes: N[] = [];
    let after: string | null = null;
    do {
      const data = await send(operation, document, schema, { ...variables, after });
      const { nodes: more, pageInfo } = page(data);
      nodes.push(...more);
      after = nextCursor(pageInfo, operation);
    } while (after);
    return nodes;
  }

  return {
    async grantedScopes() {
      const data = await send('GetGrantedScopes', D.GET_GRANTED_SCOPES, R.grantedScopesData, {});
      return data.currentAppInstallation.accessScopes.map((scope) => scope.handle);
    },

    async shopIdentity() {
      return (await send('GetShopIdentity', D.GET_SHOP_IDENTITY, R.shopIdentityData, {})).shop;
    },

    async merchantLocations() {
      const locations = await allNodes(
        'ListLocations',
        D.LIST_LOCATIONS,
        R.listLocationsData,
        {},
        (data) => data.locations,
      );
      return locations.filter((l) => !l.isFulfillmentService).map(({ id, name }) => ({ id, name }));
    },

    async listWebhookSubscriptions(topics) {
      // Shopify reads an empty topic list as "no filter": asking for none means none.
      if (topics.length === 0) return [];
      return allNodes(
        'ListWebhookSubscriptions',
        D.LIST_WEBHOOK_SUBSCRIPTIONS,
        R.listWebhookSubscriptionsData,
        { topics },
        (data) => data.webhookSubscriptions,
      );
    },

    async createWebhookSubscription(topic, uri) {
      const operation = 'CreateWebhookSubscription';
      const data = await send(
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
      const data = await send(
        operation,
        D.UPDATE_WEBHOOK_SUBSCRIPTION,
        R.updateWebhookSubscriptionData,
        { id, webhookSubscription: { uri } },
      );
      throwOnUserErrors(operation, required(data.webhookSubscriptionUpdate, operation).userErrors);
    },

    async listOrderMetafieldDefinitions(namespace) {
      const definitions = await allNodes(
        'ListOrderMetafieldDefinitions',
        D.LIST_ORDER_METAFIELD_DEFINITIONS,
        R.listMetafieldDefinitionsData,
        { namespace },
        (data) => data.metafieldDefinitions,
      );
      return definitions.map((d) => ({ id: d.id, key: d.key, name: d.name, type: d.type.name }));
    },

    async createOrderMetafieldDefinition(def) {
      const operation = 'CreateMetafieldDefinition';
      const data = await send(
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
