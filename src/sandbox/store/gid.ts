/** Shopify global ids: gid://shopify/{Type}/{numeric id}. */
export const gid = (type: string, id: string) => `gid://shopify/${type}/${id}`;

/** The numeric id of a gid of `type`, or null for anything else. */
export function idFromGid(type: string, value: unknown): string | null {
  const match = typeof value === 'string' ? value.match(/^gid:\/\/shopify\/(\w+)\/(\d+)$/) : null;
  return match && match[1] === type ? match[2]! : null;
}
