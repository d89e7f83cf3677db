/** How long the oldest provider change has waited to be written to Shopify. */
export const SYNC_LAG = {
  name: 'connector_sync_lag_seconds',
  help: 'Seconds the oldest provider change (status, tracking) not yet written to Shopify has waited; 0 when Shopify is up to date. Shared by all processes (read from Redis).',
} as const;
