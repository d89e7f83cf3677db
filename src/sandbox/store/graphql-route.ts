import type { FastifyInstance } from 'fastify';
import {
  type DocumentNode,
  execute,
  type GraphQLError,
  type GraphQLFormattedError,
  type OperationDefinitionNode,
  parse,
  validate,
} from 'graphql';
import { z } from 'zod';
import type { CostBucket } from './cost-bucket.js';
import type { FakeOrder } from './model.js';
import {
  actualQueryCost,
  MAX_QUERY_COST,
  QueryCostError,
  requestedQueryCost,
} from './query-cost.js';
import { fakeAdminSchema } from './schema.js';
import type { FakeTokens } from './tokens.js';
import type { TrafficControl } from './traffic.js';

export interface FakeGraphqlRequest {
  operationName: string | null;
  rootFields: string[];
  variables: Record<string, unknown>;
  /**
   * ok; throttled (200 THROTTLED); rate_limited (429); unauthorized (401); too_costly (200
   * MAX_COST_EXCEEDED); invalid (errors); answer_lost (applied, then 502 or a dropped
   * connection); server_error (a 5xx, nothing run).
   */
  outcome:
    | 'ok'
    | 'throttled'
    | 'rate_limited'
    | 'unauthorized'
    | 'too_costly'
    | 'invalid'
    | 'answer_lost'
    | 'server_error';
  /** The points charged (Shopify's `actualQueryCost`), once the document ran. */
  actualQueryCost?: number;
}

/**
 * Reported as the requested cost of a throttled answer without a bucket, so throttle waits stay
 * predictable in tests. An answered request reports the document's own requested and actual cost.
 */
const REQUESTED_QUERY_COST = 10;
const MAXIMUM_AVAILABLE = 2000;

const bodySchema = z.object({
  query: z.string().min(1),
  variables: z.record(z.string(), z.unknown()).nullable().optional(),
  operationName: z.string().nullable().optional(),
});

/**
 * POST /admin/api/{version}/graphql.json, answered like Shopify: 401 without a valid
 * X-Shopify-Access-Token, HTTP 200 with `errors` for documents the schema rejects, the cost
 * extension on every answer, and planned THROTTLED / 429 refusals.
 */
export function graphqlRoute(
  app: FastifyInstance,
  deps: {
    rootValue: object;
    tokens: FakeTokens;
    traffic: TrafficControl;
    requests: FakeGraphqlRequest[];
    /** Shopify's cost bucket; without it every query runs and reports a fixed cost. */
    bucket?: CostBucket;
    /** Orders changed since the last take; a mutation's are announced after it has run. */
    changes?: { take: () => FakeOrder[]; announce: (orders: FakeOrder[]) => void };
  },
): void {
  app.post('/admin/api/:version/graphql.json', async (request, reply) => {
    const seen: Omit<FakeGraphqlRequest, 'outcome'> = {
      operationName: null,
      rootFields: [],
      variables: {},
    };
    const log = (outcome: FakeGraphqlRequest['outcome'], actualQueryCost?: number) =>
      deps.requests.push({
        ...seen,
        outcome,
        ...(actualQueryCost !== undefined ? { actualQueryCost } : {}),
      });

    if (!deps.tokens.accepts(request.headers['x-shopify-access-token'])) {
      log('unauthorized');
      return reply.code(401).send({
        errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
      });
    }
    const body = bodySchema.safeParse(request.body);
    if (!body.success) {
      log('invalid');
      return reply.code(400).send({ errors: { query: 'Required parameter missing or invalid' } });
    }
    const checked = checkDocument(body.data.query);
    if ('parseError' in checked) {
      log('invalid');
      return { errors: [checked.parseError] };
    }
    const { document } = checked;
    const operation = pickOperation(document, body.data.operationName);
    seen.operationName = operation?.name?.value ?? null;
    seen.rootFields =
      operation?.selectionSet.selections.flatMap((s) =>
        s.kind === 'Field' ? [s.name.value] : [],
      ) ?? [];
    seen.variables = body.data.variables ?? {};

    const refusal = deps.traffic.next(seen.operationName, seen.rootFields);
    if (refusal?.kind === 'rate_limited') {
      log('rate_limited');
      return reply
        .code(429)
        .header('Retry-After', String(refusal.retryAfterSeconds))
        .send({ errors: 'Exceeded the API rate limit; retry after the time in Retry-After.' });
    }
    if (refusal?.kind === 'server_error') {
      log('server_error');
      return reply.code(refusal.status).send({ errors: 'Internal Server Error' });
    }
    if (refusal?.kind === 'throttled') {
      log('throttled');
      return {
        errors: [
          {
            message: 'Throttled',
            extensions: {
              code: 'THROTTLED',
              documentation: 'https://shopify.dev/api/usage/rate-limits',
            },
          },
        ],
        extensions: cost(null, refusal.currentlyAvailable, refusal.restoreRate),
      };
    }

    if (checked.validationErrors.length > 0) {
      log('invalid');
      return { errors: checked.validationErrors };
    }
    // Shopify counts a query's requested cost before running it and refuses one above 1,000.
    const queryCost = costOf(document, body.data.operationName, seen.variables);
    if (queryCost !== undefined && queryCost > MAX_QUERY_COST) {
      log('too_costly');
      return {
        errors: [
          {
            message: `Query cost is ${queryCost}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).`,
            extensions: { code: 'MAX_COST_EXCEEDED', cost: queryCost, maxCost: MAX_QUERY_COST },
          },
        ],
      };
    }
    const { bucket } = deps;
    const requested = queryCost ?? 0;
    if (bucket && !bucket.charge(requested)) {
      log('throttled');
      return {
        errors: [
          {
            message: 'Throttled',
            extensions: {
              code: 'THROTTLED',
              documentation: 'https://shopify.dev/api/usage/rate-limits',
            },
          },
        ],
        extensions: bucketCost(requested, null, bucket),
      };
    }
    deps.changes?.take();
    const result = await execute({
      schema: fakeAdminSchema,
      document,
      rootValue: deps.rootValue,
      variableValues: seen.variables,
      operationName: body.data.operationName ?? undefined,
    });
    // A query costs what it returned (connections count the nodes they held), a mutation what it
    // costs before its payload.
    const actual = Math.min(
      requested,
      actualCostOf(document, body.data.operationName, result.data, seen.variables) ?? requested,
    );
    bucket?.settle(requested, actual);
    // Shopify sends orders/updated for an app's own writes too, after the write and whether or
    // not its answer arrives.
    if (operation?.operation === 'mutation') {
      const changed = deps.changes?.take() ?? [];
      if (changed.length > 0) setImmediate(() => deps.changes?.announce(changed));
    }
    const lost =
      operation?.operation === 'mutation'
        ? deps.traffic.takeDrop(seen.operationName, seen.rootFields)
        : undefined;
    if (lost) {
      log('answer_lost', actual);
      if (lost === 'connection_reset') {
        reply.hijack();
        request.raw.socket.destroy();
        return;
      }
      return reply.code(502).header('Content-Type', 'text/html').send('<h1>502 Bad Gateway</h1>');
    }
    log(result.errors ? 'invalid' : 'ok', actual);
    return {
      ...(result.data !== undefined ? { data: result.data } : {}),
      ...(result.errors ? { errors: result.errors.map((e) => e.toJSON()) } : {}),
      extensions: bucket
        ? bucketCost(requested, actual, bucket)
        : cost(actual, MAXIMUM_AVAILABLE - REQUESTED_QUERY_COST, 100, queryCost),
    };
  });
}

type CheckedDocument =
  | { parseError: GraphQLFormattedError }
  | { document: DocumentNode; validationErrors: GraphQLFormattedError[] };

/**
 * Parsed and validated documents by their text. A client sends the same few documents over and
 * over, and parsing and validating one (against a fixed schema, so always to the same verdict)
 * costs far more than running it: without this, validation was a third of the fake store's CPU.
 * Bounded, should a client send endless distinct documents.
 */
const checkedDocuments = new Map<string, CheckedDocument>();
const MAX_CHECKED_DOCUMENTS = 1_000;

function checkDocument(text: string): CheckedDocument {
  let checked = checkedDocuments.get(text);
  if (checked) return checked;
  try {
    const document = parse(text);
    checked = {
      document,
      validationErrors: validate(fakeAdminSchema, document).map((e) => e.toJSON()),
    };
  } catch (error) {
    checked = { parseError: (error as GraphQLError).toJSON() };
  }
  if (checkedDocuments.size >= MAX_CHECKED_DOCUMENTS) checkedDocuments.clear();
  checkedDocuments.set(text, checked);
  return checked;
}

/** undefined when the document cannot be costed (no size on a connection): execution says why. */
function costOf(
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown>,
): number | undefined {
  try {
    return requestedQueryCost(fakeAdminSchema, document, { operationName, variables });
  } catch (error) {
    if (error instanceof QueryCostError) return undefined;
    throw error;
  }
}

/** What the answer is charged; null when it cannot be told (as Shopify says of a failed run). */
function actualCostOf(
  document: DocumentNode,
  operationName: string | null | undefined,
  data: unknown,
  variables: Record<string, unknown>,
): number | null {
  if (data == null) return null;
  try {
    return actualQueryCost(fakeAdminSchema, document, data, { operationName, variables });
  } catch (error) {
    if (error instanceof QueryCostError) return null;
    throw error;
  }
}

function pickOperation(document: DocumentNode, name: string | null | undefined) {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === 'OperationDefinition',
  );
  return name ? operations.find((o) => o.name?.value === name) : operations[0];
}

/** Shopify's cost extension; `actual` is null when the query was not run. */
function cost(
  actual: number | null,
  currentlyAvailable: number,
  restoreRate: number,
  requested = REQUESTED_QUERY_COST,
) {
  return {
    cost: {
      requestedQueryCost: requested,
      actualQueryCost: actual,
      throttleStatus: { maximumAvailable: MAXIMUM_AVAILABLE, currentlyAvailable, restoreRate },
    },
  };
}

/** Shopify's cost extension from the bucket: what was asked, charged, and what is left. */
function bucketCost(requested: number, actual: number | null, bucket: CostBucket) {
  return {
    cost: {
      requestedQueryCost: requested,
      actualQueryCost: actual,
      throttleStatus: bucket.throttleStatus(),
    },
  };
}
