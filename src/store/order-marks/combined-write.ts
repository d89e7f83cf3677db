/**
 * One mutation holding only the writes an order still needs: Shopify runs its root fields in the
 * order written. Each combination is a slice of WRITE_ORDER_MARKS (documents.ts), validated by
 * test/store/graphql-schema.test.ts.
 */

import { USER_ERRORS } from '../selections.js';

/** Each part's variables and root field; every field selects its userErrors. */
const PARTS = {
  setMetafields: { variables: '$order: OrderInput!', field: 'orderUpdate(input: $order)' },
  deleteMetafields: {
    variables: '$deleteMetafields: [MetafieldIdentifierInput!]!',
    field: 'metafieldsDelete(metafields: $deleteMetafields)',
  },
  addTags: { variables: '$addTags: [String!]!', field: 'tagsAdd(id: $id, tags: $addTags)' },
  removeTags: {
    variables: '$removeTags: [String!]!',
    field: 'tagsRemove(id: $id, tags: $removeTags)',
  },
} as const;

/** At least one part; named WriteOrderMarks whatever it holds. */
export function combinedWriteDocument(parts: Record<keyof typeof PARTS, boolean>): string {
  const chosen = (Object.keys(PARTS) as (keyof typeof PARTS)[]).filter((key) => parts[key]);
  if (chosen.length === 0) throw new TypeError('A combined write needs at least one part');
  const variables = [
    ...(parts.addTags || parts.removeTags ? ['$id: ID!'] : []),
    ...chosen.map((key) => PARTS[key].variables),
  ];
  return `mutation WriteOrderMarks(${variables.join(', ')}) {\n${chosen
    .map((key) => `  ${PARTS[key].field} { ${USER_ERRORS} }`)
    .join('\n')}\n}\n`;
}
