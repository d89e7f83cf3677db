import type { QueryCost } from './query-cost.js';

/** `follow-up`: writes that move a registered order on; `registration`: all the rest. */
export type StorePriority = 'registration' | 'follow-up';

/** The Shopify bucket all processes share (shared-bucket.ts). Never sleeps: it says how long to. */
export interface StoreCostGate {
  /**
   * Asks to send one request. `sendInMs` 0: send now, its requested cost is taken. More: its
   * place is booked; ask again after that many ms with the ticket as `booked`. `deferMs`:
   * nothing was booked, the wait is longer than `maxWaitMs`; ask again then.
   */
  take(request: CostRequest, maxWaitMs: number): Promise<CostTicket>;
  /**
   * After Shopify answered (or the request failed): adopts the level Shopify reports, or returns
   * what the request was charged beyond its actual cost (all of it when it did not run).
   */
  settle(ticket: GrantedTicket, answer: QueryCost | undefined): Promise<void>;
}

export interface CostRequest {
  cost: number;
  /** Its operation name: the model keeps what each one cost last. */
  operation: string;
  /** Default `registration`. */
  priority?: StorePriority;
  /** The ticket of the booking this request holds, when it asks again. */
  booked?: GrantedTicket;
}

export type GrantedTicket = Pick<CostRequest, 'cost' | 'operation'> & {
  granted: true;
  sendInMs: number;
  id: string;
  /** While `sendInMs` > 0: the place booked. */
  booking?: string;
};
export type CostTicket = GrantedTicket | { granted: false; deferMs: number };
