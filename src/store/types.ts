import type { Fulfillments } from './fulfillments/types.js';
import type { OrderMarks } from './order-marks/types.js';
import type { OrderReader } from './orders/types.js';
import type { StoreSetup } from './setup/types.js';

export type * from './fulfillments/types.js';
export type * from './order-marks/types.js';
export type * from './orders/types.js';
export type * from './setup/types.js';

/**
 * Every store capability over one transport, for the composition root to hand out. Jobs and use
 * cases take the one capability they use (OrderReader, OrderMarks, Fulfillments or StoreSetup).
 */
export type StoreClient = OrderReader & OrderMarks & Fulfillments & StoreSetup;
