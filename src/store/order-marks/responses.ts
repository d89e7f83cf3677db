import { z } from 'zod';
import { payload } from '../transport/answers.js';

/** The `data` of each document in documents.ts, as far as the order marks read it. */

const written = payload({});

export type Payload = NonNullable<z.output<typeof written>>;

/** SetOrderMetafields and UpdateOrderNote. */
export const orderUpdateData = z.object({ orderUpdate: written });

/** An entry per identifier sent; null where Shopify found no such metafield (not an error). */
export const deleteMetafieldsData = z.object({
  metafieldsDelete: payload({
    deletedMetafields: z
      .array(z.object({ ownerId: z.string(), namespace: z.string(), key: z.string() }).nullable())
      .nullable(),
  }),
});

export const addTagsData = z.object({ tagsAdd: written });
export const removeTagsData = z.object({ tagsRemove: written });

export const getOrderNoteData = z.object({
  order: z.object({ id: z.string(), note: z.string().nullable() }).nullable(),
});

/** Each part of WriteOrderMarks that was sent; the others are absent. */
export const writeOrderMarksData = z.object({
  orderUpdate: written.optional(),
  metafieldsDelete: written.optional(),
  tagsAdd: written.optional(),
  tagsRemove: written.optional(),
});

export const getOrderMarksData = z.object({
  order: z
    .object({
      tags: z.array(z.string()),
      orderNumber: z.object({ value: z.string() }).nullable(),
      error: z.object({ id: z.string() }).nullable(),
    })
    .nullable(),
});
