import { z } from 'zod';
import { userErrors } from '../transport/answers.js';

/** The `data` of each document in documents.ts, as far as the order marks read it. */

export const setMetafieldsData = z.object({
  orderUpdate: z.object({ userErrors }).nullable(),
});

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

export const addTagsData = z.object({ tagsAdd: z.object({ userErrors }).nullable() });
export const removeTagsData = z.object({ tagsRemove: z.object({ userErrors }).nullable() });

export const getOrderNoteData = z.object({
  order: z.object({ id: z.string(), note: z.string().nullable() }).nullable(),
});

export const updateOrderNoteData = z.object({ orderUpdate: z.object({ userErrors }).nullable() });

/** Each part of WriteOrderMarks that was sent; the others are absent. */
export const writeOrderMarksData = z.object({
  orderUpdate: z.object({ userErrors }).nullable().optional(),
  metafieldsDelete: z.object({ userErrors }).nullable().optional(),
  tagsAdd: z.object({ userErrors }).nullable().optional(),
  tagsRemove: z.object({ userErrors }).nullable().optional(),
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
