/**
 * The status sync's lag: how long the oldest change at the provider (a new status, tracking)
 * has waited to be written to Shopify. The status sync owns the value, so it registers it:
 *
 *   metrics.registerGauge({ ...SYNC_LAG, read: async () => seconds })
 *
 * Until it does, /metrics has no such metric (never a made-up value); the alert rule on it then
 * stays silent.
 */
export const SYNC_LAG = {
  name: 'connector_sync_lag_seconds',
  help: 'Seconds the oldest provider change (status, tracking) not yet written to Shopify has waited; 0 when Shopify is up to date. Shared by all processes (read from Redis).',
} as const;
