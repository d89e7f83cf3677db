import { createFulfillments } from './fulfillments/fulfillments.js';
import { createOrderMarks } from './order-marks/order-marks.js';
import { createOrderReader } from './orders/order-reader.js';
import { createShopAccess } from './shop/shop-name.js';
import { type AdminClientOptions, createAdminTransport } from './transport/admin-transport.js';
import type { StoreClient } from './types.js';

export type { AdminClientOptions };

/** Every capability of the store over one shared transport (one token, one throttle). */
export function createStoreClient(options: AdminClientOptions): StoreClient {
  const transport = createAdminTransport(options);
  return {
    ...createShopAccess(transport),
    ...createOrderReader(transport),
    ...createOrderMarks(transport),
    ...createFulfillments(transport),
  };
}
