import type { QueryCost } from './query-cost.js';

/**
 * What the transport asks before each request when one Shopify bucket is shared by every
 * process (shared-bucket.ts holds it in Redis). Never sleeps: it says how long to.
 */
export interface StoreCostGate {
  /**
   * Takes `cost` points for one request. `sendInMs` 0: send now; more: the points are booked,
   * send after that many ms (without asking again). `deferMs`: nothing was taken, the wait is
   * longer than `maxWaitMs`; ask again then.
   */
  take(cost: number, maxWaitMs: number): Promise<CostTicket>;
  /**
   * After Shopify answered (or the request failed): returns to the model what the request was
   * charged beyond its actual cost (all of it when it did not run) and adopts Shopify's bucket.
   */
  settle(ticket: GrantedTicket, answer: QueryCost | undefined): Promise<void>;
}

export type GrantedTicket = { granted: true; cost: number; sendInMs: number; id: string };
export type CostTicket = GrantedTicket | { granted: false; deferMs: number };
