import { z } from 'zod';
import type { StoreTransport } from '../transport/admin-transport.js';
import type { ShopAccess } from '../types.js';
import { SHOP_NAME_QUERY } from './documents.js';

const shopNameAnswer = z.object({ shop: z.object({ name: z.string() }) });

/** The shop itself: its name, one cheap request that proves the access token works. */
export function createShopAccess(transport: StoreTransport): ShopAccess {
  return {
    async shopName() {
      const data = await transport.send('ShopName', SHOP_NAME_QUERY, shopNameAnswer, {});
      return data.shop.name;
    },
  };
}
