import { z } from 'zod';

/** The check reads the order from Shopify when it runs. */
export const checkOrderEditPayload = z.object({
  orderId: z.string().regex(/^\d{1,20}$/, 'must be a numeric Shopify order id'),
});
