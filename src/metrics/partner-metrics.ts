import type { PartnerBudget } from '../partner/budget.js';
import { type ConnectorMetrics, SHARED } from './registry.js';

export interface PartnerMetricsDeps {
  budget: Pick<PartnerBudget, 'stats' | 'blockedForMs'>;
  /** PARTNER_RATE_LIMIT. */
  limit: number;
  tokenRefusedSince(): Promise<string | null>;
}

export function registerPartnerMetrics(metrics: ConnectorMetrics, deps: PartnerMetricsDeps): void {
  metrics.registerGauge({
    name: 'connector_partner_token_refused',
    help: `1 while the provider refuses the partner token (401): the shipment queues are paused until a valid PARTNER_API_TOKEN works; else 0. ${SHARED}`,
    read: async () => ((await deps.tokenRefusedSince()) ? 1 : 0),
  });
  metrics.registerGauge({
    name: 'connector_partner_budget_limit',
    help: 'Requests the partner token may send per rate window (PARTNER_RATE_LIMIT).',
    read: async () => deps.limit,
  });
  metrics.registerGauge({
    name: 'connector_partner_budget_remaining',
    help: `Requests the partner token may still send in the current rate window. ${SHARED}`,
    read: async () => (await deps.budget.stats()).remaining,
  });
  metrics.registerGauge({
    name: 'connector_partner_rate_limited_seconds',
    help: `Seconds left before any process may call the provider again after its last 429 (Retry-After); 0 when not held back. ${SHARED}`,
    read: async () => (await deps.budget.blockedForMs()) / 1000,
  });
  metrics.registerCounter({
    name: 'connector_partner_budget_sent_total',
    help: `Partner requests the shared budget let through, from every process. ${SHARED}`,
    read: async () => (await deps.budget.stats()).sent,
  });
  metrics.registerCounter({
    name: 'connector_partner_rate_limited_total',
    help: `Times the provider answered 429 (rate limited), from every process. ${SHARED}`,
    read: async () => (await deps.budget.stats()).rateLimited,
  });
  metrics.registerCounter({
    name: 'connector_partner_budget_waits_total',
    help: `Partner requests held back because the budget was spent or a 429 was in force; their jobs waited without using an attempt. ${SHARED}`,
    read: async () => (await deps.budget.stats()).denied,
  });
  metrics.registerCounter({
    name: 'connector_partner_budget_wait_seconds_total',
    help: `Seconds of waiting the budget imposed on held-back partner requests, added up. ${SHARED}`,
    read: async () => (await deps.budget.stats()).waitMs / 1000,
  });
}
