import { COUNTER_HELP, type CounterName, type Counters } from './counters.js';
import { type ConnectorMetrics, SHARED } from './registry.js';

export function registerSharedCounters(
  metrics: ConnectorMetrics,
  counters: Pick<Counters, 'read'>,
): void {
  for (const [name, help] of Object.entries(COUNTER_HELP) as [CounterName, string][]) {
    metrics.registerCounter({
      name: `connector_${name}_total`,
      help: `${help} ${SHARED}`,
      // Never incremented: no field yet.
      read: async () => (await counters.read())[name] ?? 0,
    });
  }
}
