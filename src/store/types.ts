import type { Fulfillments } from './fulfillments/types.js';
import type { OrderMarks } from './order-marks/types.js';
import type { OrderReader } from './orders/types.js';
import type { StoreSetup } from './setup/types.js';

export type * from './fulfillments/types.js';
export type * from './order-marks/types.js';
export type * from './orders/types.js';
export type * from './setup/types.js';

/** For the composition root; jobs and use cases take only the capability they use. */
export type StoreClient = OrderReader & OrderMarks & Fulfillments & StoreSetup;
