import { AsyncLocalStorage } from 'node:async_hooks';
import type { StorePriority } from './cost-gate.js';

/** Set where the work starts (a job's worker), so the capabilities in between need not carry it. */
const currentPriority = new AsyncLocalStorage<StorePriority>();

export function withStorePriority<T>(priority: StorePriority, work: () => Promise<T>): Promise<T> {
  return currentPriority.run(priority, work);
}

/** Outside any `withStorePriority`, a request waits in turn: `registration`. */
export function storePriority(): StorePriority {
  return currentPriority.getStore() ?? 'registration';
}
