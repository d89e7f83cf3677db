import { AsyncLocalStorage } from 'node:async_hooks';
import type { StorePriority } from './cost-gate.js';

/**
 * The priority of the work a request is part of, set where the work starts (a job's worker) so
 * that the capabilities in between need not carry it; the same use of AsyncLocalStorage as
 * fetch-routing.ts.
 */
const currentPriority = new AsyncLocalStorage<StorePriority>();

/** Runs `work` so that every Admin API request it makes waits in the shop's bucket as `priority`. */
export function withStorePriority<T>(priority: StorePriority, work: () => Promise<T>): Promise<T> {
  return currentPriority.run(priority, work);
}

/** Outside any `withStorePriority`, a request waits in turn: `registration`. */
export function storePriority(): StorePriority {
  return currentPriority.getStore() ?? 'registration';
}
