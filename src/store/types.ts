import type { Fulfillments } from './fulfillments/types.js';
import type { OrderMarks } from './order-marks/types.js';
import type { OrderReader } from './orders/types.js';

export type * from './fulfillments/types.js';
export type * from './order-marks/types.js';
export type * from './orders/types.js';

/**
 * Every store capability over one transport, for the composition root to hand out. Jobs and use
 * cases take the one capability they use (OrderReader, OrderMarks or Fulfillments).
 */
/** One cheap request that proves the access token works (checked at start). */
export interface ShopAccess {
  shopName(): Promise<string>;
}

export type StoreClient = ShopAccess & OrderReader & OrderMarks & Fulfillments;
