import { GraphqlQueryError, HttpThrottlingError } from '@shopify/shopify-api';
import { z } from 'zod';

/** Used when Shopify says "throttled" but not for how long. */
const DEFAULT_THROTTLE_WAIT_MS = 1_000;
/** One wait never exceeds this, whatever the answer claims. */
const MAX_THROTTLE_WAIT_MS = 60_000;

const throttledBodySchema = z.object({
  errors: z.object({
    graphQLErrors: z.array(
      z.object({ extensions: z.object({ code: z.string().optional() }).optional() }).loose(),
    ),
  }),
  extensions: z
    .object({
      cost: z.object({
        requestedQueryCost: z.number(),
        throttleStatus: z.object({
          currentlyAvailable: z.number(),
          restoreRate: z.number().positive(),
        }),
      }),
    })
    .optional(),
});

export type ThrottleSignal = { kind: 'cost' | 'rate_limit'; waitMs: number; status: number };

/**
 * Null when `error` is not throttling. THROTTLED comes as a GraphqlQueryError (HTTP 200) with the
 * cost in its body: wait for the refill. HTTP 429 comes as an HttpThrottlingError, as the library's
 * own retries are off: wait `retryAfter` seconds.
 */
export function throttleSignal(error: unknown): ThrottleSignal | null {
  if (error instanceof HttpThrottlingError) {
    const seconds = error.response.retryAfter ?? Number.NaN;
    const waitMs =
      Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_THROTTLE_WAIT_MS;
    return { kind: 'rate_limit', waitMs: clampWait(waitMs), status: 429 };
  }
  if (!(error instanceof GraphqlQueryError)) return null;

  const body = throttledBodySchema.safeParse(error.body).data;
  if (!body?.errors.graphQLErrors.some((e) => e.extensions?.code === 'THROTTLED')) return null;

  const cost = body.extensions?.cost;
  if (!cost) return { kind: 'cost', waitMs: DEFAULT_THROTTLE_WAIT_MS, status: 200 };
  const { currentlyAvailable, restoreRate } = cost.throttleStatus;
  // At least one point short: Shopify said no, so the bucket cannot already be full enough.
  const missingPoints = Math.max(1, cost.requestedQueryCost - currentlyAvailable);
  return { kind: 'cost', waitMs: clampWait((missingPoints / restoreRate) * 1000), status: 200 };
}

function clampWait(ms: number): number {
  return Math.min(MAX_THROTTLE_WAIT_MS, Math.max(0, Math.ceil(ms)));
}
