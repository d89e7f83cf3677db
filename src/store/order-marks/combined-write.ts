/**
 * One `mutation` document holding only the writes an order still needs, so marking an order is
 * one request whatever it takes: Shopify runs the root fields of a mutation one after another,
 * in the order written. Each part costs 10 points (metafields go through orderUpdate, a flat 10,
 * where metafieldsSet would charge 10 more for the order). Every combination is one slice of
 * WRITE_ORDER_MARKS (documents.ts), and
 * test/store/graphql-schema.test.ts validates each against the real schema.
 */

export interface CombinedWriteParts {
  setMetafields: boolean;
  deleteMetafields: boolean;
  addTags: boolean;
  removeTags: boolean;
}

const USER_ERRORS = 'userErrors { field message }';

const PARTS = {
  setMetafields: {
    variables: '$order: OrderInput!',
    field: `orderUpdate(input: $order) { ${USER_ERRORS} }`,
  },
  deleteMetafields: {
    variables: '$deleteMetafields: [MetafieldIdentifierInput!]!',
    field: `metafieldsDelete(metafields: $deleteMetafields) { ${USER_ERRORS} }`,
  },
  addTags: {
    variables: '$addTags: [String!]!',
    field: `tagsAdd(id: $id, tags: $addTags) { ${USER_ERRORS} }`,
  },
  removeTags: {
    variables: '$removeTags: [String!]!',
    field: `tagsRemove(id: $id, tags: $removeTags) { ${USER_ERRORS} }`,
  },
} as const;

/** The document for these parts (at least one); named WriteOrderMarks whatever it holds. */
export function combinedWriteDocument(parts: CombinedWriteParts): string {
  const chosen = (Object.keys(PARTS) as (keyof CombinedWriteParts)[]).filter((key) => parts[key]);
  if (chosen.length === 0) throw new TypeError('A combined write needs at least one part');
  const needsId = parts.addTags || parts.removeTags;
  const variables = [
    ...(needsId ? ['$id: ID!'] : []),
    ...chosen.map((key) => PARTS[key].variables),
  ];
  return `mutation WriteOrderMarks(${variables.join(', ')}) {\n${chosen
    .map((key) => `  ${PARTS[key].field}`)
    .join('\n')}\n}\n`;
}
