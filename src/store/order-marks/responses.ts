import { z } from 'zod';
import { userErrors } from '../transport/answers.js';

/** The `data` of each document in documents.ts, as far as the order marks read it. */

const payload = z.object({ userErrors }).nullable();

export type Payload = NonNullable<z.output<typeof payload>>;

/** SetOrderMetafields and UpdateOrderNote. */
export const orderUpdateData = z.object({ orderUpdate: payload });

/** An entry per identifier sent; null where Shopify found no such metafield (not an error). */
export const deleteMetafieldsData = z.object({
  metafieldsDelete: z
    .object({
      deletedMetafields: z
        .array(z.object({ ownerId: z.string(), namespace: z.string(), key: z.string() }).nullable())
        .nullable(),
      userErrors,
    })
    .nullable(),
});

export const addTagsData = z.object({ tagsAdd: payload });
export const removeTagsData = z.object({ tagsRemove: payload });

export const getOrderNoteData = z.object({
  order: z.object({ id: z.string(), note: z.string().nullable() }).nullable(),
});

/** Each part of WriteOrderMarks that was sent; the others are absent. */
export const writeOrderMarksData = z.object({
  orderUpdate: payload.optional(),
  metafieldsDelete: payload.optional(),
  tagsAdd: payload.optional(),
  tagsRemove: payload.optional(),
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
