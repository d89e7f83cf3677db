import { z } from 'zod';

/** Shopify's `extensions.cost` of one answer: what the query was charged and the bucket after. */
const costSchema = z
  .object({
    requestedQueryCost: z.number(),
    actualQueryCost: z.number().nullable().optional(),
    throttleStatus: z
      .object({
        maximumAvailable: z.number(),
        currentlyAvailable: z.number(),
        restoreRate: z.number(),
      })
      .optional(),
  })
  .transform(({ requestedQueryCost, actualQueryCost, throttleStatus }) => ({
    /** Points the query needed available before it ran. */
    requested: requestedQueryCost,
    /** Points it was charged in the end; null when it did not run (throttled). */
    actual: actualQueryCost ?? null,
    ...(throttleStatus ? { throttleStatus } : {}),
  }));

export type QueryCost = z.output<typeof costSchema>;

/** The cost in the `extensions` of an answer (or a GraphQL error's body), or undefined. */
export function queryCostOf(answer: unknown): QueryCost | undefined {
  const extensions = (answer as { extensions?: { cost?: unknown } } | undefined)?.extensions;
  return costSchema.safeParse(extensions?.cost).data;
}

/** How one request to the Admin API went, for metrics: throttled ones are counted apart. */
export interface StoreRequestOutcome {
  /** The document's operation name, e.g. `GetOrder` (never an id). */
  operation: string;
  outcome: 'ok' | 'throttled' | 'error';
  cost?: QueryCost;
  /** For a throttled request, how long the client waits before sending it again. */
  throttleWaitMs?: number;
}
