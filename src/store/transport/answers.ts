import { z } from 'zod';
import { StoreRequestError } from '../errors.js';

export const pageInfo = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });

export const userErrors = z.array(
  z.object({
    field: z.array(z.string()).nullable().optional(),
    message: z.string(),
    code: z.string().nullable().optional(),
  }),
);

export function connection<T extends z.ZodType>(node: T) {
  return z.object({ nodes: z.array(node), pageInfo });
}

export function payload<S extends z.ZodRawShape>(shape: S) {
  return z.object({ ...shape, userErrors }).nullable();
}

export function nextCursor(page: z.output<typeof pageInfo>, operation: string): string | null {
  if (!page.hasNextPage) return null;
  // Stopping here would silently drop the rest; asking again from the start would never end.
  if (!page.endCursor) {
    throw new StoreRequestError(`Shopify's answer to ${operation} has a next page but no cursor`, {
      operation,
    });
  }
  return page.endCursor;
}

/** A mutation payload is null only when Shopify also sent errors; guard anyway. */
export function required<T>(value: T | null, operation: string): T {
  if (value === null) {
    throw new StoreRequestError(`Shopify's answer to ${operation} has no result`, { operation });
  }
  return value;
}
