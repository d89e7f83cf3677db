import { type GraphQLSchema, Kind, parse } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  actualQueryCost,
  MAX_QUERY_COST,
  QueryCostError,
  requestedQueryCost,
} from '../../src/sandbox/store/query-cost.js';
import { fakeAdminSchema } from '../../src/sandbox/store/schema.js';
import { ORDERS_PAGE_SIZE } from '../../src/store/orders/order-reader.js';
import { REQUESTED_COSTS, requestedCostOf } from '../../src/store/transport/requested-costs.js';
import { storeDocuments } from './documents.js';
import { loadRealSchema } from './real-schema.js';

/**
 * Shopify's Admin API refuses, before running it, any single query whose requested cost is above
 * 1,000 points (MAX_COST_EXCEEDED). The fake store answers whatever it is asked, so only counting
 * against the real schema catches a document that would never run against a real store.
 */

let realSchema: GraphQLSchema;

beforeAll(() => {
  realSchema = loadRealSchema();
}, 300_000);

/** What the client sends for a variable that sizes a connection, by operation. */
const CLIENT_VARIABLES: Record<string, Record<string, unknown>> = {
  ListOrdersUpdatedSince: { first: ORDERS_PAGE_SIZE },
};

function operationName(document: string): string {
  const operation = parse(document).definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  return operation?.name?.value ?? '(anonymous)';
}

const documents = storeDocuments.map(({ document }) => ({
  name: operationName(document),
  document,
}));

const costOf = (schema: GraphQLSchema, { name, document }: (typeof documents)[number]) =>
  requestedQueryCost(schema, parse(document), {
    variables: {
      ...CLIENT_VARIABLES[name],
    },
  });

describe('requested cost of every document in src/store/documents.ts (real 2026-10 schema)', () => {
  it.each(documents)(`$name costs at most ${MAX_QUERY_COST}`, (entry) => {
    expect(costOf(realSchema, entry)).toBeLessThanOrEqual(MAX_QUERY_COST);
  });

  it('costs what src/store/transport/requested-costs.ts declares, for every document and no other', () => {
    const costs = Object.fromEntries(
      documents.map((entry) => [entry.name, costOf(realSchema, entry)]),
    );
    expect(costs).toEqual(REQUESTED_COSTS);
  });

  it('is what the client takes from the shared bucket for each document', () => {
    for (const entry of documents) {
      expect(requestedCostOf(entry.document), entry.name).toBe(costOf(realSchema, entry));
    }
  });

  it('costs the same on the fake store schema, which refuses by the same count', () => {
    for (const entry of documents) {
      expect(costOf(fakeAdminSchema, entry), entry.name).toBe(costOf(realSchema, entry));
    }
  });
});

describe('figures from Shopify (real 2026-07 schema)', () => {
  const cost = (document: string) => requestedQueryCost(realSchema, parse(document));

  it('a shop and four scalar or enum fields: 1 (the object; scalars and enums are free)', () => {
    // Shopify Engineering, "Rate limiting GraphQL APIs by calculating query complexity".
    expect(cost('query { shop { id name timezoneOffsetMinutes customerAccounts } }')).toBe(1);
  });

  // shopify.dev, GraphQL Admin API rate limits: a connection costs 2 plus the objects asked for.
  it('a connection: 2, plus first × the node', () => {
    expect(cost('query { orders(first: 10) { nodes { id } } }')).toBe(2 + 10 * 1);
  });

  // The same page: a mutation costs 10. The model adds what the payload selects (an upper bound).
  it('a mutation: 10, plus its payload', () => {
    expect(
      cost(
        'mutation { tagsAdd(id: "gid://shopify/Order/1", tags: ["a"]) { userErrors { message } } }',
      ),
    ).toBe(10 + 1);
  });
});

describe('actualQueryCost: what the fake store charges for what it answered', () => {
  const item = {
    title: 'Mug',
    currentQuantity: 1,
    requiresShipping: true,
    product: { productType: 'Homeware' },
    variant: { inventoryItem: { measurement: { weight: { unit: 'GRAMS', value: 350 } } } },
  };
  const getOrder = storeDocuments.find((d) => d.document.includes('query GetOrder('))!.document;

  it('charges the objects returned: an order with 3 of the 24 line items asked for', () => {
    const data = {
      order: {
        id: 'gid://shopify/Order/1',
        shipmentOrderNumber: null,
        shipmentError: null,
        shippingAddress: { city: 'Vejle' },
        lineItems: { nodes: [item, item, item], pageInfo: { hasNextPage: false } },
      },
    };
    // the order, its address, the connection 2 + 3 items × 6; null metafields cost nothing
    expect(actualQueryCost(realSchema, parse(getOrder), data)).toBe(1 + 1 + 2 + 3 * 6);
    expect(actualQueryCost(fakeAdminSchema, parse(getOrder), data)).toBe(22);
  });

  it('charges 10 per mutation answered: registration marks (tags and metafields) 20', () => {
    const write = storeDocuments.find((d) => d.document.includes('mutation WriteOrderMarks'))!;
    const data = { orderUpdate: { userErrors: [] }, tagsAdd: { userErrors: [] } };
    const variables = {
      order: {
        id: 'gid://shopify/Order/1',
        metafields: [{ namespace: 'partner_shipment', key: 'order_number', value: 'A1' }],
      },
    };
    expect(actualQueryCost(realSchema, parse(write.document), data, { variables })).toBe(20);
  });

  it('charges every document that writes order metafields a flat 10 for them', () => {
    const writes = storeDocuments.filter((d) =>
      /Metafields|WithStatus|WriteOrderMarks/.test(d.document),
    );
    expect(writes.length).toBeGreaterThanOrEqual(5);
    for (const { document } of writes) {
      expect(document).not.toMatch(/metafieldsSet\(/);
    }
  });

  it('charges orderUpdate a flat 10, however many of the order metafields it sets', () => {
    const update = parse(/* GraphQL */ `
      mutation Update($input: OrderInput!) {
        orderUpdate(input: $input) { userErrors { field } }
      }
    `);
    const metafields = Array.from({ length: 7 }, (_, i) => ({
      namespace: 'partner_shipment',
      key: `key_${i}`,
      type: 'single_line_text_field',
      value: 'x',
    }));
    const variables = { input: { id: 'gid://shopify/Order/1', metafields } };
    const data = { orderUpdate: { userErrors: [] } };
    for (const schema of [realSchema, fakeAdminSchema]) {
      expect(actualQueryCost(schema, update, data, { variables })).toBe(10);
    }
  });

  it("charges metafieldsSet by Shopify's owner weights: 25 orders 260, aliases each their own", () => {
    const owners = (type: string, count: number) =>
      Array.from({ length: count }, (_, i) => ({ ownerId: `gid://shopify/${type}/${i + 1}` }));
    const set = parse(/* GraphQL */ `
      mutation Set($metafields: [MetafieldsSetInput!]!) {
        metafieldsSet(metafields: $metafields) { userErrors { field } }
      }
    `);
    const data = { metafieldsSet: { userErrors: [] } };
    const cost = (metafields: unknown[]) =>
      actualQueryCost(fakeAdminSchema, set, data, { variables: { metafields } });
    expect(cost(owners('Order', 25))).toBe(260);
    // Each owner counts once, however many of its metafields are set.
    expect(cost([...owners('Product', 1), ...owners('Product', 1)])).toBe(14);
    expect(cost(owners('Location', 3))).toBe(10);
    const aliased = parse(/* GraphQL */ `
      mutation Set($metafields: [MetafieldsSetInput!]!) {
        a: metafieldsSet(metafields: $metafields) { userErrors { field } }
        b: metafieldsSet(metafields: $metafields) { userErrors { field } }
        c: metafieldsSet(metafields: $metafields) { userErrors { field } }
      }
    `);
    const answered = { a: data.metafieldsSet, b: data.metafieldsSet, c: data.metafieldsSet };
    expect(
      actualQueryCost(fakeAdminSchema, aliased, answered, {
        variables: { metafields: owners('Order', 25) },
      }),
    ).toBe(780);
  });
});

describe('requestedQueryCost', () => {
  const cost = (document: string, variables?: Record<string, unknown>) =>
    requestedQueryCost(realSchema, parse(document), variables ? { variables } : {});

  it('refuses the listing as it was: 50 whole orders with 100 line items each', () => {
    expect(cost(OLD_LIST_ORDERS_UPDATED_SINCE, { first: 50 })).toBe(30_202);
    expect(cost(OLD_LIST_ORDERS_UPDATED_SINCE, { first: 50 })).toBeGreaterThan(MAX_QUERY_COST);
  });

  it('refuses the fulfillment orders query as it was: 50 × 250 lines', () => {
    expect(cost(OLD_GET_FULFILLMENT_ORDERS)).toBe(25_153);
  });

  it('counts objects 1, scalars and enums 0', () => {
    expect(cost('{ shop { name currencyCode } }')).toBe(1);
    expect(cost('{ shop { name billingAddress { city } } }')).toBe(2);
  });

  it('counts a connection 2 + first × one node, nested connections multiplying', () => {
    const products = (items: string) => `{
      products(first: 10) { ${items} { title variants(first: 5) { nodes { price } } } }
    }`;
    // 2 + 10 × (1 + (2 + 5 × 1))
    expect(cost(products('nodes'))).toBe(82);
    expect(
      cost(
        '{ products(first: 10) { edges { cursor node { title variants(first: 5) { edges { node { price } } } } } pageInfo { hasNextPage } } }',
      ),
    ).toBe(82);
    expect(cost('{ orders(last: 20) { nodes { id } } }')).toBe(22);
  });

  it('sizes a connection by the variable sent, else its default, and refuses an unsized one', () => {
    const query = 'query Q($n: Int = 7) { orders(first: $n) { nodes { id } } }';
    expect(cost(query, { n: 100 })).toBe(102);
    expect(cost(query)).toBe(9);
    expect(() => cost('query Q($n: Int) { orders(first: $n) { nodes { id } } }')).toThrow(
      QueryCostError,
    );
    expect(() => cost('{ orders { nodes { id } } }')).toThrow(QueryCostError);
  });

  it('counts the dearest of the fragments on different types', () => {
    const query = `{
      node(id: "gid://shopify/Order/1") {
        ... on Order { shippingAddress { city } billingAddress { city } }
        ... on Product { title }
      }
    }`;
    expect(cost(query)).toBe(3);
  });
});

/** ListOrdersUpdatedSince as it was before the listing was cut to a summary. */
const OLD_LIST_ORDERS_UPDATED_SINCE = /* GraphQL */ `
  query ListOrdersUpdatedSince($first: Int!, $after: String, $query: String!) {
    orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
      nodes {
        id
        name
        createdAt
        updatedAt
        test
        cancelledAt
        displayFinancialStatus
        displayFulfillmentStatus
        tags
        email
        phone
        shippingAddress {
          name
          company
          phone
          address1
          address2
          city
          zip
          countryCodeV2
        }
        lineItems(first: 100) {
          nodes {
            title
            currentQuantity
            requiresShipping
            product {
              productType
            }
            variant {
              inventoryItem {
                measurement {
                  weight {
                    unit
                    value
                  }
                }
              }
            }
          }
          pageInfo {
            hasNextPage
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

/** GetFulfillmentOrders as it was before it paged. */
const OLD_GET_FULFILLMENT_ORDERS = /* GraphQL */ `
  query GetFulfillmentOrders($id: ID!) {
    order(id: $id) {
      id
      fulfillmentOrders(first: 50) {
        nodes {
          id
          status
          lineItems(first: 250) {
            nodes {
              id
              totalQuantity
              remainingQuantity
              lineItem {
                id
              }
            }
          }
        }
      }
    }
  }
`;
