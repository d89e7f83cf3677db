import { z } from 'zod';
import type { OrderMarksSeen } from '../../src/domain/order-marks.js';

/** Details are read from the order record when the job runs: a replay writes the latest state. */
export const markOrderPayload = z.object({
  orderId: z.string().regex(/^\d{1,20}$/, 'must be a numeric Shopify order id'),
  kind: z.enum([
    'registered',
    'failed',
    'cancelled_after_registration',
    'cancelled_after_failure',
    'order_edited',
  ]),
  /** No personal data. First run only, so a retry or replay reads the order afresh. */
  seen: z
    .object({
      tags: z.array(z.string().max(64)).max(20),
      orderNumber: z.string().max(255).nullable(),
      error: z.boolean(),
    })
    .optional(),
});

export type MarkOrderKind = z.infer<typeof markOrderPayload>['kind'];

/** `seen`: marks just loaded, so the job writes only what differs without reading. */
export type MarkOrder = (
  orderId: string,
  kind: MarkOrderKind,
  seen?: OrderMarksSeen,
) => Promise<void>;
