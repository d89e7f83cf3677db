import { z } from 'zod';
import type { StoreTransport } from '../transport/admin-transport.js';
import { SHOP_NAME_QUERY } from './documents.js';

const shopNameAnswer = z.object({ shop: z.object({ name: z.string() }) });

/** The shop's name: one cheap request that proves the access token works. */
export async function readShopName(transport: StoreTransport): Promise<string> {
  const data = await transport.send('ShopName', SHOP_NAME_QUERY, shopNameAnswer, {});
  return data.shop.name;
}
