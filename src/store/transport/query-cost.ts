import { z } from 'zod';

/** Shopify's `extensions.cost` of one answer: what the query was charged and the bucket after. */
export interface QueryCost {
  /** Points the query needed available before it ran. */
  requested: number;
  /** Points it was charged in the end; null when it did not run (throttled). */
  actual: number | null;
  throttleStatus?: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

const costSchema = z.object({
  requestedQueryCost: z.number(),
  actualQueryCost: z.number().nullable().optional(),
  throttleStatus: z
    .object({
      maximumAvailable: z.number(),
      currentlyAvailable: z.number(),
      restoreRate: z.number(),
    })
    .optional(),
});

/** The cost in an answer's `extensions` (or a GraphQL error's body), or undefined without one. */
export function queryCostOf(extensions: unknown): QueryCost | undefined {
  const cost = costSchema.safeParse((extensions as { cost?: unknown } | undefined)?.cost);
  if (!cost.success) return undefined;
  return {
    requested: cost.data.requestedQueryCost,
    actual: cost.data.actualQueryCost ?? null,
    ...(cost.data.throttleStatus ? { throttleStatus: cost.data.throttleStatus } : {}),
  };
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
