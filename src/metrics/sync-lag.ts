/**
 * The status sync's lag: how long the oldest change at the provider (a new status, tracking)
 * has waited to be written to Shopify, read from the sync's write queues
 * (src/compose/queue-metrics.ts).
 */
export const SYNC_LAG = {
  name: 'connector_sync_lag_seconds',
  help: 'Seconds the oldest provider change (status, tracking) not yet written to Shopify has waited; 0 when Shopify is up to date. Shared by all processes (read from Redis).',
} as const;
