import type { Redis } from 'ioredis';
import { countStaffActions } from '../records/audit-trail.js';
import type { ConnectorMetrics } from './registry.js';

export function registerStaffActionMetrics(
  metrics: ConnectorMetrics,
  deps: { redis: Redis; prefix: string },
): void {
  metrics.registerCounter({
    name: 'connector_staff_actions_total',
    help: 'Changes staff made to jobs or records (Bull Board retries, cleans, promotes, removes; connector replay, order --replay, environment commands), by action and via (board or cli); `connector audit` lists them. Shared by all processes (kept in Redis).',
    labelNames: ['action', 'via'],
    read: async () =>
      (await countStaffActions(deps.redis, deps.prefix)).map(({ via, action, count }) => ({
        labels: { action, via },
        value: count,
      })),
  });
}
