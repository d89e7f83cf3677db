/** What `connector setup` checks and creates in the store. */
export interface StoreSetup {
  /** Handles of the scopes the app was granted (currentAppInstallation.accessScopes). */
  grantedScopes(): Promise<string[]>;
  /** A cheap check that the token works. */
  shopIdentity(): Promise<{ name: string; myshopifyDomain: string }>;
  /** Active locations not of a fulfillment service. */
  merchantLocations(): Promise<{ id: string; name: string }[]>;
  /** Webhook subscriptions for these topics (e.g. ORDERS_CREATE): id, topic, uri. */
  listWebhookSubscriptions(topics: string[]): Promise<{ id: string; topic: string; uri: string }[]>;
  createWebhookSubscription(topic: string, uri: string): Promise<{ id: string }>;
  updateWebhookSubscription(id: string, uri: string): Promise<void>;
  listOrderMetafieldDefinitions(
    namespace: string,
  ): Promise<{ id: string; key: string; name: string; type: string }[]>;
  createOrderMetafieldDefinition(def: {
    namespace: string;
    key: string;
    name: string;
    description?: string;
    type: string;
    /** Shown on the order page in the admin (the Metafields card). */
    pin?: boolean;
  }): Promise<void>;
}
