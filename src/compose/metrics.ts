import { type PartnerMetricsDeps, registerPartnerMetrics } from '../metrics/partner-metrics.js';
import type { ConnectorMetrics } from '../metrics/registry.js';
import { registerSharedCounters } from '../metrics/shared-counters.js';
import { registerStaffActionMetrics } from '../metrics/staff-actions.js';
import type { SharedParts } from './parts.js';
import { registerQueueMetrics } from './queue-metrics.js';

export function registerSharedMetrics(
  metrics: ConnectorMetrics,
  deps: {
    parts: Pick<SharedParts, 'queueOf' | 'redis' | 'prefix' | 'counters' | 'records'>;
    /** Default 0: every scrape reads. */
    cacheMs?: number;
  } & PartnerMetricsDeps,
): void {
  registerQueueMetrics(metrics, deps.parts, { cacheMs: deps.cacheMs });
  registerSharedCounters(metrics, deps.parts.counters);
  registerStaffActionMetrics(metrics, deps.parts);
  registerPartnerMetrics(metrics, deps);
}
